package io.github.routingkit.testkit.cli;

import io.github.routingkit.testkit.DistributionReport;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Draws a distribution report with XChart: bars per partition, mean, perfect-hash band. */
final class LoadChart {
  private LoadChart() {}

  static void checkFormat(CommandLine cmd, Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (!name.endsWith(".svg") && !name.endsWith(".png")) {
      throw new ParameterException(cmd, "--chart was " + file + ", must end with .svg or .png");
    }
    // checked before the sample is read, so a long run does not end in an unwritable path
    Path parent = file.toAbsolutePath().getParent();
    if (java.nio.file.Files.isDirectory(file)) {
      throw new ParameterException(cmd, "--chart was " + file + ", which is a directory");
    }
    if (parent == null || !java.nio.file.Files.isDirectory(parent)) {
      throw new ParameterException(cmd, "--chart was " + file + ", its directory does not exist");
    }
    if (!java.nio.file.Files.isWritable(parent)) {
      throw new ParameterException(cmd, "--chart was " + file + ", its directory is not writable");
    }
  }

  static void write(DistributionReport report, Path file, String sampleName) {
    long[] counts = report.statistics().counts();
    double mean = report.statistics().mean();
    List<Integer> x = new ArrayList<>();
    List<Long> y = new ArrayList<>();
    List<Double> meanLine = new ArrayList<>();
    List<Double> expectedLine = new ArrayList<>();
    List<Double> p99Line = new ArrayList<>();
    for (int p = 0; p < counts.length; p++) {
      x.add(p);
      y.add(counts[p]);
      meanLine.add(mean);
      expectedLine.add(mean * report.perfectHashExpected());
      p99Line.add(mean * report.perfectHashP99());
    }
    CategoryChart chart = new CategoryChartBuilder().width(1100).height(520)
        .title(String.format(Locale.ROOT, "%s: %,d messages, %d partitions, max/mean %.4f, %s",
            sampleName, report.messages(), counts.length, report.maxOverMean(), report.verdict()))
        .xAxisTitle("partition").yAxisTitle("messages").build();
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setChartTitleFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 13));
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setXAxisLabelRotation(counts.length > 40 ? 90 : 0);
    chart.getStyler().setXAxisTicksVisible(counts.length <= 200);
    chart.getStyler().setYAxisMin(0.0);
    CategorySeries bars = chart.addSeries("messages per partition", x, y);
    bars.setFillColor(new Color(0x4C, 0x78, 0xA8));
    line(chart, "mean", x, meanLine, Color.DARK_GRAY);
    line(chart, String.format(Locale.ROOT, "perfect hash of these keys: expected max (%.4f x mean)",
        report.perfectHashExpected()), x, expectedLine, new Color(0x54, 0xA2, 0x4B));
    line(chart, String.format(Locale.ROOT, "p99 max (%.4f x mean)",
        report.perfectHashP99()), x, p99Line, new Color(0xE4, 0x57, 0x56));
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    try (OutputStream out = Files.newOutputStream(file)) {
      if (name.endsWith(".svg")) {
        VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
      } else {
        BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
      }
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot write --chart " + file + ": "
          + (e instanceof java.nio.file.FileSystemException f && f.getReason() != null
              ? f.getReason() : e.getClass().getSimpleName() + " " + e.getMessage()));
    }
  }

  private static void line(CategoryChart chart, String name, List<Integer> x, List<Double> y,
      Color color) {
    CategorySeries s = chart.addSeries(name, x, y);
    s.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
    s.setLineColor(color);
    s.setMarkerColor(color);
    s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
  }
}
