package dev.sextant.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * The results chart, drawn with java.awt (headless, no charting dependency): left, the CDF of sync latency per
 * system and scale on a log time axis; right, replay at failover against how far the group lagged, log-log (replay
 * 0 is drawn on the bottom line), with the offset.lag.max and L/2 guides.
 */
final class Charts {

    private static final int W = 1500;
    private static final int H = 620;
    /**
     * By {@link BenchSettings#ALL_SYSTEMS}: MM2 default, MM2 1 s, Sextant, Sextant with interpolation off, Sextant
     * polling through the Admin API.
     */
    private static final Color[] SYSTEM_COLORS = {new Color(0xC0392B), new Color(0xE67E22), new Color(0x1E8449),
        new Color(0x2471A3), new Color(0x7D3C98)};

    /** One CDF: sorted latencies in ms; {@code failed}: the run failed (its unresolved commits at their age then). */
    record Cdf(String system, int groups, double[] sortedMillis, boolean failed) {

        Cdf(String system, int groups, double[] sortedMillis) {
            this(system, groups, sortedMillis, false);
        }
    }

    /** One replay point. */
    record ReplayPoint(String system, int groups, long lag, long replay) {
    }

    private Charts() {
    }

    static Color color(String system) {
        int i = BenchSettings.ALL_SYSTEMS.indexOf(system);
        return SYSTEM_COLORS[Math.max(0, i)];
    }

    static void write(Path file, String title, List<Cdf> cdfs, List<ReplayPoint> points, int offsetLagMax,
                      List<Integer> scales) throws IOException {
        write(file, title, cdfs, points, offsetLagMax, scales, List.of());
    }

    /** @param failures runs that failed, said under the latency plot (e.g. "mm2-1s, 1,000 groups: ...") */
    static void write(Path file, String title, List<Cdf> cdfs, List<ReplayPoint> points, int offsetLagMax,
                      List<Integer> scales, List<String> failures) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, 20, 26);

        drawLatencyCdfs(g, cdfs, scales);
        drawReplayVersusLag(g, points, offsetLagMax, scales);
        if (!failures.isEmpty()) {
            String text = "failed: " + String.join("; ", failures);
            g.setColor(new Color(0xC0392B));
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawString(text.length() > 120 ? text.substring(0, 117) + "..." : text, 80, H - 12);
        }
        g.dispose();
        Files.createDirectories(file.toAbsolutePath().getParent());
        ImageIO.write(image, "png", file.toFile());
    }

    /** Left: the latency CDF of each system and scale. */
    private static void drawLatencyCdfs(Graphics2D g, List<Cdf> cdfs, List<Integer> scales) {
        Plot left = new Plot(80, 70, 620, 470, 1, 6, 0, 1); // 10 ms .. 1000 s (log10 ms)
        left.axes(g, "sync latency (source commit → visible on destination)", "fraction of commits",
                new double[] {1, 2, 3, 4, 5, 6}, new String[] {"10 ms", "100 ms", "1 s", "10 s", "100 s", "1000 s"},
                new double[] {0, 0.25, 0.5, 0.75, 1}, new String[] {"0", "0.25", "0.5", "0.75", "1"});
        List<String> legend = new ArrayList<>();
        List<Color> legendColors = new ArrayList<>();
        List<Stroke> legendStrokes = new ArrayList<>();
        for (Cdf cdf : cdfs) {
            if (cdf.sortedMillis().length == 0) {
                continue;
            }
            double[] v = cdf.sortedMillis();
            Path2D line = cdfLine(left, v);
            Stroke stroke = strokeFor(cdf.groups(), scales);
            g.setColor(color(cdf.system()));
            g.setStroke(stroke);
            g.draw(line);
            legend.add(String.format("%s, %,d groups (p50 %s)%s", cdf.system(), cdf.groups(),
                    Report.duration(Samples.quantile(v, 0.5)), cdf.failed() ? ", failed" : ""));
            legendColors.add(color(cdf.system()));
            legendStrokes.add(stroke);
        }
        left.legend(g, legend, legendColors, legendStrokes, true);
    }

    /** The CDF of {@code v} (sorted milliseconds, at least one) as a line, at most about 2,000 points. */
    private static Path2D cdfLine(Plot left, double[] v) {
        Path2D line = new Path2D.Double();
        int step = Math.max(1, v.length / 2000);
        boolean first = true;
        for (int i = 0; i < v.length; i += step) {
            double x = left.x(Math.log10(Math.max(10, v[i])));
            double y = left.y((i + 1) / (double) v.length);
            if (first) {
                line.moveTo(x, left.y(0));
                line.lineTo(x, y);
                first = false;
            } else {
                line.lineTo(x, y);
            }
        }
        line.lineTo(left.x(Math.log10(Math.max(10, v[v.length - 1]))), left.y(1));
        return line;
    }

    /** Right: the records each group replays after a failover against how far behind it committed. */
    private static void drawReplayVersusLag(Graphics2D g, List<ReplayPoint> points, int offsetLagMax,
                                            List<Integer> scales) {
        // the largest scale that has points is drawn as dots, the others as squares
        int largest = points.stream().mapToInt(ReplayPoint::groups).max()
                .orElse(scales.stream().mapToInt(Integer::intValue).max().orElse(0));
        long maxLag = points.stream().mapToLong(ReplayPoint::lag).max().orElse(10);
        long maxReplay = points.stream().mapToLong(ReplayPoint::replay).max().orElse(10);
        double xMax = Math.ceil(Math.log10(Math.max(10, maxLag)));
        double yMax = Math.ceil(Math.log10(Math.max(10, maxReplay + 1)));
        Plot right = new Plot(800, 70, 620, 470, 0, xMax, 0, yMax);
        double[] xt = new double[(int) xMax + 1];
        String[] xl = new String[xt.length];
        for (int i = 0; i < xt.length; i++) {
            xt[i] = i;
            xl[i] = i == 0 ? "1" : "10^" + i;
        }
        double[] yt = new double[(int) yMax + 1];
        String[] yl = new String[yt.length];
        for (int i = 0; i < yt.length; i++) {
            yt[i] = i;
            yl[i] = i == 0 ? "0" : "10^" + i;
        }
        right.axes(g, "records behind the log end when committed (lag L)", "records replayed after failover",
                xt, xl, yt, yl);
        g.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
        g.setColor(Color.GRAY);
        double yLagMax = Math.log10(offsetLagMax + 1);
        g.draw(new Line2D.Double(right.x(0), right.y(yLagMax), right.x(xMax), right.y(yLagMax)));
        g.drawString("offset.lag.max = " + offsetLagMax, (int) right.x(0) + 6, (int) right.y(yLagMax) - 4);
        g.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {2, 3}, 0));
        g.draw(new Line2D.Double(right.x(Math.log10(2)), right.y(0), right.x(xMax),
                right.y(Math.min(yMax, Math.log10(Math.pow(10, xMax) / 2 + 1)))));
        g.drawString("L/2", (int) right.x(xMax) - 30, (int) right.y(Math.min(yMax, xMax - Math.log10(2))) + 14);
        for (ReplayPoint p : points) {
            double x = right.x(Math.log10(Math.max(1, p.lag())));
            double y = right.y(Math.log10(p.replay() + 1.0));
            Color c = color(p.system());
            g.setColor(new Color(c.getRed(), c.getGreen(), c.getBlue(), 150));
            int size = p.groups() == largest ? 5 : 4;
            if (p.groups() == largest) {
                g.fillOval((int) x - size / 2, (int) y - size / 2, size, size);
            } else {
                g.drawRect((int) x - size / 2, (int) y - size / 2, size, size);
            }
        }
        List<String> rl = new ArrayList<>();
        List<Color> rc = new ArrayList<>();
        for (String system : BenchSettings.ALL_SYSTEMS) {
            if (points.stream().anyMatch(p -> p.system().equals(system))) {
                rl.add(system);
                rc.add(color(system));
            }
        }
        right.legend(g, rl, rc, null, false);
        g.setColor(Color.DARK_GRAY);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawString("dots: " + String.format("%,d", largest) + " groups"
                + (scales.size() > 1 ? "; squares: smaller scales" : ""), 800, H - 12);
    }

    /** The largest scale solid, the next dashed, smaller ones dotted (one line style per scale up to three). */
    private static Stroke strokeFor(int groups, List<Integer> scales) {
        List<Integer> bySize = scales.stream().sorted(Comparator.reverseOrder()).toList();
        int rank = Math.max(0, bySize.indexOf(groups));
        if (rank == 0) {
            return new BasicStroke(2.2f);
        }
        float[] dash = rank == 1 ? new float[] {7, 4} : new float[] {2, 3};
        return new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, dash, 0);
    }

    /** A plot area with linear data coordinates (the callers pass logarithms). */
    private record Plot(int left, int top, int width, int height, double x0, double x1, double y0, double y1) {

        double x(double v) {
            return left + (v - x0) / (x1 - x0) * width;
        }

        double y(double v) {
            return top + height - (v - y0) / (y1 - y0) * height;
        }

        void axes(Graphics2D g, String xLabel, String yLabel, double[] xt, String[] xl, double[] yt, String[] yl) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.setStroke(new BasicStroke(1f));
            for (int i = 0; i < xt.length; i++) {
                g.setColor(new Color(0xE5E5E5));
                g.draw(new Line2D.Double(x(xt[i]), top, x(xt[i]), top + height));
                g.setColor(Color.DARK_GRAY);
                g.drawString(xl[i], (int) x(xt[i]) - 12, top + height + 16);
            }
            for (int i = 0; i < yt.length; i++) {
                g.setColor(new Color(0xE5E5E5));
                g.draw(new Line2D.Double(left, y(yt[i]), left + width, y(yt[i])));
                g.setColor(Color.DARK_GRAY);
                g.drawString(yl[i], left - 40, (int) y(yt[i]) + 4);
            }
            g.setColor(Color.BLACK);
            g.drawRect(left, top, width, height);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            g.drawString(xLabel, left + width / 2 - g.getFontMetrics().stringWidth(xLabel) / 2, top + height + 38);
            AffineTransform saved = g.getTransform();
            g.rotate(-Math.PI / 2);
            g.drawString(yLabel, -(top + height / 2) - g.getFontMetrics().stringWidth(yLabel) / 2, left - 50);
            g.setTransform(saved);
        }

        void legend(Graphics2D g, List<String> labels, List<Color> colors, List<Stroke> strokes,
                    boolean bottomRight) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            int lineH = 17;
            int boxW = 10 + labels.stream().mapToInt(s -> g.getFontMetrics().stringWidth(s)).max().orElse(0) + 40;
            int boxH = labels.size() * lineH + 8;
            int bx = bottomRight ? left + width - boxW - 8 : left + 8;
            int by = bottomRight ? top + height - boxH - 8 : top + 8;
            g.setColor(new Color(255, 255, 255, 230));
            g.fillRect(bx, by, boxW, boxH);
            g.setColor(Color.LIGHT_GRAY);
            g.setStroke(new BasicStroke(1f));
            g.drawRect(bx, by, boxW, boxH);
            for (int i = 0; i < labels.size(); i++) {
                int y = by + 14 + i * lineH;
                g.setColor(colors.get(i));
                g.setStroke(strokes == null ? new BasicStroke(6f) : strokes.get(i));
                g.draw(new Line2D.Double(bx + 6, y - 4, bx + 30, y - 4));
                g.setColor(Color.BLACK);
                g.drawString(labels.get(i), bx + 36, y);
            }
        }
    }
}
