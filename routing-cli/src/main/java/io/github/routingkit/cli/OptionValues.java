package io.github.routingkit.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Properties;

/**
 * Reads the values of options that several commands take: a key's bytes from {@code --key-hex} or
 * {@code --key-file} ({@code compare}, {@code locate}) and client properties from
 * {@code --command-config} ({@code analyze}, {@code locate}). Each command declares its options
 * itself, with help text that says what the value means to it; the reading is the same.
 */
final class OptionValues {
  private OptionValues() {}

  /**
   * The bytes spelled by {@code digits}: an optional {@code 0x} / {@code 0X} prefix, then an even
   * number of hex digits {@code 0-9 a-f A-F}; null if {@code digits} is not that.
   */
  static byte[] hexBytes(String digits) {
    String h = digits.startsWith("0x") || digits.startsWith("0X") ? digits.substring(2) : digits;
    if (h.length() % 2 != 0 || !h.matches("[0-9a-fA-F]*")) {
      return null;
    }
    return HexFormat.of().parseHex(h);
  }

  /**
   * The bytes of {@code --key-file} {@code file}, one trailing newline ({@code \n} or
   * {@code \r\n}) dropped.
   *
   * @throws KeyInput.InputException if the file cannot be read
   */
  static byte[] keyFile(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new KeyInput.InputException("cannot read --key-file " + file + ": no such file");
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot read --key-file " + file + ": " + e);
    }
    int len = bytes.length;
    if (len > 0 && bytes[len - 1] == '\n') {
      len--;
      if (len > 0 && bytes[len - 1] == '\r') {
        len--;
      }
    }
    return Arrays.copyOf(bytes, len);
  }

  /**
   * The properties of {@code --command-config} {@code file} (UTF-8); empty if {@code file} is null.
   *
   * @throws KeyInput.InputException if the file cannot be read or parsed
   */
  static Properties commandConfig(Path file) {
    Properties p = new Properties();
    if (file != null) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        p.load(r);
      } catch (IOException | IllegalArgumentException e) {
        throw new KeyInput.InputException("cannot read --command-config " + file + ": "
            + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
      }
    }
    return p;
  }
}
