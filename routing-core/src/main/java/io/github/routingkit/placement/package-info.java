/**
 * Placements map a key's hash to a partition: {@code Placement} (modulo variants, {@code Jump}
 * after Lamping and Veach, {@code JumpBack} after Ertl).
 */
package io.github.routingkit.placement;
