package io.github.routingkit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The value syntax shared by every {@code routing.*} option and the segment notation: integers are
 * ASCII digits only ({@code Integer.parseInt} would also take {@code +3} and other scripts'
 * digits), decimals are plain ({@code Double.parseDouble} would also take {@code 0x1p3},
 * {@code 1d}, {@code NaN} and {@code Infinity}) with an exponent of at most 3 digits, lists are comma-separated with every item trimmed
 * and none empty, and a {@code name:value} entry splits at its last colon. Internal (not API).
 */
public final class Values {
  private Values() {}

  private static final Pattern ASCII_DIGITS = Pattern.compile("[0-9]+");
  /** An exponent has at most this many digits: {@code 1e999} is a decimal, {@code 1e1000} none. */
  public static final int MAX_EXPONENT_DIGITS = 3;
  private static final Pattern DECIMAL =
      Pattern.compile("[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]{1,3})?|\\.[0-9]+([eE][+-]?[0-9]{1,3})?");
  private static final Pattern LONG_EXPONENT = Pattern.compile(".*[eE][+-]?[0-9]{4,}%?");

  /** Returned by {@link #parseLong} for text that is no integer at least the minimum. */
  public static final long INVALID = Long.MIN_VALUE;

  /**
   * Returns the integer {@code text} if it is ASCII digits, fits a long and is at least
   * {@code min}, else {@link #INVALID}.
   */
  public static long parseLong(String text, long min) {
    if (text == null || !ASCII_DIGITS.matcher(text).matches()) {
      return INVALID;
    }
    try {
      long v = Long.parseLong(text);
      return v >= min ? v : INVALID;
    } catch (NumberFormatException e) {
      return INVALID;
    }
  }

  /** Returns the int {@code text} if it is ASCII digits, fits an int and is at least {@code min}, else -1 (so {@code min >= 0}). */
  public static int parseInt(String text, int min) {
    long v = parseLong(text, min);
    return v == INVALID || v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  /**
   * Returns the plain decimal {@code text}, or NaN if it is not one: ASCII digits with an optional
   * fraction and an optional exponent of at most {@value #MAX_EXPONENT_DIGITS} digits (so no
   * decimal needs more than a {@code BigDecimal} of about 1,000 digits' scale, and
   * {@code 1e99999999999} is no decimal rather than an overflow).
   */
  public static double parseDecimal(String text) {
    if (text == null || !DECIMAL.matcher(text).matches()) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  /**
   * Returns {@code " (an exponent has at most 3 digits)"} if {@code text} (optionally ending in
   * {@code %}) has a longer exponent, else {@code ""}: the hint a decimal rule appends.
   */
  public static String exponentHint(String text) {
    return text != null && LONG_EXPONENT.matcher(text.trim()).matches()
        ? " (an exponent has at most " + MAX_EXPONENT_DIGITS + " digits)" : "";
  }

  /**
   * Returns the trimmed comma-separated items of {@code list}, empty ones included (so a caller can
   * reject {@code "a,"} or {@code ","} instead of silently reading fewer items).
   */
  public static List<String> items(String list) {
    List<String> out = new ArrayList<>();
    for (String item : list.split(",", -1)) {
      out.add(item.trim());
    }
    return out;
  }

  /** Returns whether one of the {@link #items} of {@code list} is empty. */
  public static boolean hasEmptyItem(String list) {
    return items(list).contains("");
  }

  /**
   * Splits a {@code name:value} entry at its last colon into trimmed name and value, or returns
   * null if the colon is missing, first or last.
   */
  public static String[] nameValue(String item) {
    int colon = item.lastIndexOf(':');
    if (colon <= 0 || colon == item.length() - 1) {
      return null;
    }
    return new String[] {item.substring(0, colon).trim(), item.substring(colon + 1).trim()};
  }
}
