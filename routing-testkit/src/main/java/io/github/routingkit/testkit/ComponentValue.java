package io.github.routingkit.testkit;

import java.util.Objects;

/**
 * An immutable value that is compared, hashed and printed by its components, exactly as a Java
 * record would be: {@code equals} compares each component with {@link Objects#equals} (boxed
 * floating-point components therefore compare like {@link Double#compare}), {@code hashCode} is
 * {@code 31 * h + hashCode(component)} from 0 in declaration order, and {@code toString} is
 * {@code Name[a=1, b=2]}. The report value types of the test kit extend it so that they behave
 * as records while the test kit compiles for Java 11.
 */
abstract class ComponentValue {

  /** Returns the component names and values, alternating, in declaration order. */
  abstract Object[] components();

  @Override
  public final boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || o.getClass() != getClass()) {
      return false;
    }
    Object[] mine = components();
    Object[] theirs = ((ComponentValue) o).components();
    for (int i = 1; i < mine.length; i += 2) {
      if (!Objects.equals(mine[i], theirs[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public final int hashCode() {
    Object[] c = components();
    int h = 0;
    for (int i = 1; i < c.length; i += 2) {
      h = 31 * h + Objects.hashCode(c[i]);
    }
    return h;
  }

  @Override
  public final String toString() {
    Object[] c = components();
    StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('[');
    for (int i = 0; i < c.length; i += 2) {
      sb.append(i == 0 ? "" : ", ").append(c[i]).append('=').append(c[i + 1]);
    }
    return sb.append(']').toString();
  }
}
