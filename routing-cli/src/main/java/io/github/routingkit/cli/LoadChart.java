package io.github.routingkit.cli;

import io.github.routingkit.testkit.DistributionReport;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.CategoryTextAnnotation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Draws a distribution report with JFreeChart, readable at a glance: the y-axis zooms around the
 * mean (not from 0, where 24 balanced bars and their bounds merge into one strip), the band a
 * perfect hash of these keys stays within (p99) is shaded, the hottest partitions are labelled with
 * their multiple of the mean, and bars above the band are drawn in red. SVG via JFreeSVG keeps text
 * as text: about 20-40 KB for 24 bars. Above {@value #MAX_BARS} partitions, consecutive partitions
 * are grouped into one bar showing the group's hottest, so the file stays small for any count.
 */
final class LoadChart {
  /** The most bars drawn; more partitions are grouped. */
  static final int MAX_BARS = 128;
  /** How many of the hottest partitions are labelled. */
  static final int LABELLED = 3;
  private static final Color BAR = new Color(0x4C, 0x78, 0xA8);
  private static final Color HOT = new Color(0xD6, 0x27, 0x28);
  private static final Color BAND = new Color(0x54, 0xA2, 0x4B, 60);
  private static final int WIDTH = 1100;
  private static final int HEIGHT = 520;

  private LoadChart() {}

  static void checkFormat(CommandLine cmd, Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (!name.endsWith(".svg") && !name.endsWith(".png")) {
      throw new ParameterException(cmd, "--chart was " + file + ", must end with .svg or .png");
    }
    // checked before the sample is read, so a long run does not end in an unwritable path
    Path parent = file.toAbsolutePath().getParent();
    if (Files.isDirectory(file)) {
      throw new ParameterException(cmd, "--chart was " + file + ", which is a directory");
    }
    if (parent == null || !Files.isDirectory(parent)) {
      throw new ParameterException(cmd, "--chart was " + file + ", its directory does not exist");
    }
    if (!Files.isWritable(parent)) {
      throw new ParameterException(cmd, "--chart was " + file + ", its directory is not writable");
    }
  }

  /**
   * Writes the chart of {@code report} to {@code file} (.svg or .png), titled {@code title} (the
   * sample's name: a file name, "standard input", a topic).
   */
  static void write(DistributionReport report, Path file, String title) {
    JFreeChart chart = chart(report, title);
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    try {
      if (name.endsWith(".svg")) {
        SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
        // sub-pixel digits only bloat the file
        g.setGeomDoubleConverter(v -> String.format(Locale.ROOT, "%.1f", v));
        g.setTransformDoubleConverter(v -> String.format(Locale.ROOT, "%.2f", v));
        chart.draw(g, new java.awt.Rectangle(0, 0, WIDTH, HEIGHT));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
          w.write(g.getSVGDocument());
        }
      } else {
        try (OutputStream out = Files.newOutputStream(file)) {
          ChartUtils.writeChartAsPNG(out, chart, WIDTH, HEIGHT);
        }
      }
    } catch (IOException e) {
      throw new KeyInput.InputException("cannot write --chart " + file + ": "
          + (e instanceof java.nio.file.FileSystemException f && f.getReason() != null
              ? f.getReason() : e.getClass().getSimpleName() + " " + e.getMessage()));
    }
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw} (and at least 1). */
  static double niceStep(double raw) {
    if (!(raw > 1)) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= raw) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static JFreeChart chart(DistributionReport report, String title) {
    // rotated text (the y-axis title) as a string, not as glyph outlines (38 KB of paths)
    org.jfree.chart.text.TextUtils.setUseDrawRotatedStringWorkaround(false);
    long[] counts = report.statistics().counts();
    int n = counts.length;
    double mean = report.statistics().mean();
    int group = (n + MAX_BARS - 1) / MAX_BARS;
    int bars = (n + group - 1) / group;
    long[] shown = new long[bars];
    String[] labels = new String[bars];
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (int b = 0; b < bars; b++) {
      int from = b * group;
      int to = Math.min(n, from + group) - 1;
      long max = 0;
      for (int p = from; p <= to; p++) {
        max = Math.max(max, counts[p]);
      }
      shown[b] = max;
      labels[b] = from == to ? Integer.toString(from) : from + "-" + to;
      data.addValue(max, "messages", labels[b]);
    }
    double p99 = mean * report.perfectHashP99();
    double low = mean * (2 - report.perfectHashP99()); // the band, mirrored below the mean
    long min = Arrays.stream(shown).min().orElse(0);
    long max = Arrays.stream(shown).max().orElse(0);
    double top = Math.max(max, p99);
    double bottom = Math.min(min, low);
    double pad = Math.max(1, (top - bottom) * 0.12);

    CategoryAxis x = new CategoryAxis(group == 1 ? "partition"
        : "partitions, " + group + " per bar (the group's hottest)");
    x.setCategoryMargin(0.15);
    if (bars > 40) {
      x.setCategoryLabelPositions(CategoryLabelPositions.UP_90);
    }
    x.setTickLabelsVisible(bars <= 96);
    x.setTickMarksVisible(false);
    double yMin = Math.max(0, bottom - pad);
    NumberAxis y = new NumberAxis(yMin > 0 ? "messages (zoomed: the axis does not start at 0)"
        : "messages");
    y.setAutoRangeIncludesZero(false);
    y.setRange(yMin, top + pad * 1.6);
    y.setNumberFormatOverride(java.text.NumberFormat.getIntegerInstance(Locale.ROOT));
    y.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(niceStep((top + pad * 1.6 - yMin) / 8)));

    BarRenderer renderer = new BarRenderer() {
      private static final long serialVersionUID = 1L;

      @Override
      public Paint getItemPaint(int row, int column) {
        return shown[column] > p99 ? HOT : BAR;
      }
    };
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setDrawBarOutline(false);
    renderer.setMaximumBarWidth(0.05);
    renderer.setDefaultSeriesVisibleInLegend(false);

    CategoryPlot plot = new CategoryPlot(data, x, y, renderer);
    plot.setOrientation(PlotOrientation.VERTICAL);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(new Color(0xDD, 0xDD, 0xDD));
    IntervalMarker band = new IntervalMarker(low, p99, BAND);
    band.setLabel(String.format(Locale.ROOT, "perfect-hash band: max within %.4f x mean (p99)",
        report.perfectHashP99()));
    band.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    band.setLabelAnchor(RectangleAnchor.TOP_LEFT);
    band.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
    plot.addRangeMarker(band, Layer.BACKGROUND);
    ValueMarker meanLine = new ValueMarker(mean, Color.DARK_GRAY, new BasicStroke(1.2f));
    meanLine.setLabel(String.format(Locale.ROOT, "mean %,.0f", mean));
    meanLine.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    meanLine.setLabelAnchor(RectangleAnchor.RIGHT);
    meanLine.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
    plot.addRangeMarker(meanLine, Layer.FOREGROUND);

    Integer[] order = new Integer[bars];
    for (int b = 0; b < bars; b++) {
      order[b] = b;
    }
    Arrays.sort(order, (a, b) -> Long.compare(shown[b], shown[a]));
    for (int i = 0; i < Math.min(LABELLED, bars); i++) {
      int b = order[i];
      if (mean == 0) {
        break;
      }
      // the multiple of the mean above the bar (its partition is on the axis below)
      CategoryTextAnnotation a = new CategoryTextAnnotation(String.format(Locale.ROOT,
          "%.3fx", shown[b] / mean), labels[b], shown[b] + pad * 0.1);
      a.setFont(new Font(Font.SANS_SERIF, Font.BOLD, bars > 30 ? 9 : 11));
      a.setTextAnchor(TextAnchor.BOTTOM_CENTER);
      a.setPaint(shown[b] > p99 ? HOT : Color.BLACK);
      plot.addAnnotation(a);
    }

    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 15), plot, false);
    chart.setBackgroundPaint(Color.WHITE);
    String sub = String.format(Locale.ROOT, "%,d messages, %s%,d distinct keys, %d partitions:"
        + " max/mean %.4f (partition %d), verdict %s", report.messages(),
        report.distinctKeysExact() ? "" : "~", report.distinctKeys(), n, report.maxOverMean(),
        report.statistics().hottestPartition(), report.verdict());
    chart.addSubtitle(new TextTitle(sub, new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
    return chart;
  }
}
