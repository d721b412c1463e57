import java.awt.Color;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.xml.sax.SAXParseException;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.properties.GameProperties;
import games.strategy.engine.data.properties.IEditableProperty;

/**
 * Reads TripleA game files with the real TripleA engine (1.9) and prints what it understood, one JSON
 * object per file and line, so that kremlin-triplea can check its own reader and writer against it.
 *
 * <p>Usage: {@code java -cp triplea.jar:. EngineHarness FILE...}; with no arguments the paths are read
 * from standard input, one a line, so a caller is not limited by the command line's length. Run it with
 * the TripleA {@code bin} folder as working directory (the engine reads game_engine.properties there).
 *
 * <p>Standard output carries only the JSON lines: the engine prints to System.out freely, so that is
 * pointed at standard error before any engine class is loaded.
 */
public final class EngineHarness {
  private static final String PUS = "PUs";

  /** The engine runs arbitrary loader and delegate code; one file must not stop the whole batch. */
  private static final long TIMEOUT_SECONDS = Long.getLong("kremlin.fileTimeoutSeconds", 120L);

  private EngineHarness() {}

  public static void main(final String[] args) throws Exception {
    final PrintStream json =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
    // ClientLogger captures System.out in a static field when it is first loaded, so this must come first.
    System.setOut(System.err);

    final List<String> paths = new ArrayList<>();
    if (args.length > 0) {
      for (final String arg : args) {
        paths.add(arg);
      }
    } else {
      final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isEmpty()) {
          paths.add(line);
        }
      }
    }

    ExecutorService worker = newWorker();
    for (final String path : paths) {
      final Reading reading = new Reading(path);
      final long start = System.nanoTime();
      final Future<?> future = worker.submit(() -> read(reading));
      Reading result = reading;
      try {
        future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (final TimeoutException e) {
        future.cancel(true);
        // The stuck thread is a daemon and may never stop, nor stop writing to its reading;
        // later files get a fresh thread, and this one a fresh reading.
        worker.shutdownNow();
        worker = newWorker();
        result = new Reading(path);
        result.fail("timed out after " + TIMEOUT_SECONDS + " s");
      } catch (final ExecutionException e) {
        // read() catches everything the engine throws; this is the harness's own failure, still one file's.
        result = new Reading(path);
        result.fail("kremlin harness: " + rootMessage(e));
      }
      System.err.printf("kremlin-engine-harness: %d ms: %s%n", (System.nanoTime() - start) / 1_000_000, path);
      json.println(result.toJson());
    }
    json.flush();
    // The engine starts background threads (downloads, timers) that would keep the JVM alive.
    System.exit(0);
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(runnable -> {
      final Thread thread = new Thread(runnable, "kremlin-engine-reader");
      thread.setDaemon(true);
      return thread;
    });
  }

  private static void read(final Reading reading) {
    // The map name only appears in the engine's messages; the bare file name keeps them machine-independent.
    final GameParser parser = new GameParser(Paths.get(reading.file).getFileName().toString());
    final AtomicReference<String> gameName = new AtomicReference<>();
    try (InputStream stream = new FileInputStream(reading.file)) {
      final GameData data = parser.parse(stream, gameName, false);
      reading.describe(data);
    } catch (final Throwable e) {
      reading.fail(rootMessage(e));
    } finally {
      reading.gameName = gameName.get();
      reading.dtdErrors = dtdErrors(parser);
    }
  }

  /** The parser collects DTD violations privately and only prints them; it still accepts the file. */
  @SuppressWarnings("unchecked")
  private static List<String> dtdErrors(final GameParser parser) {
    final List<String> errors = new ArrayList<>();
    try {
      final Field field = GameParser.class.getDeclaredField("errorsSAX");
      field.setAccessible(true);
      for (final SAXParseException error : (Collection<SAXParseException>) field.get(parser)) {
        errors.add("line " + error.getLineNumber() + ", column " + error.getColumnNumber() + ": "
            + error.getMessage());
      }
    } catch (final ReflectiveOperationException e) {
      // A silent empty list would claim the file is valid.
      errors.add("kremlin harness cannot read GameParser.errorsSAX: " + e);
    }
    return errors;
  }

  static String rootMessage(final Throwable thrown) {
    Throwable root = thrown;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    final String message = root.getMessage();
    final String name = root.getClass().getSimpleName();
    if (message == null || message.trim().isEmpty()) {
      return name;
    }
    return name + ": " + message.trim().split("\\R", 2)[0];
  }

  private static String ownerName(final PlayerID owner) {
    return owner == null || owner.isNull() ? null : owner.getName();
  }

  /** Every territory as a JSON object of its owner, units and water flag, keyed by name. */
  static Map<String, String> territoriesOf(final GameData data) {
    final Map<String, String> territories = new TreeMap<>();
    for (final Territory territory : data.getMap().getTerritories()) {
      territories.put(territory.getName(), territoryJson(territory));
    }
    return territories;
  }

  /** Every player's PUs; empty for a game without the PUs resource. */
  static Map<String, Integer> pusOf(final GameData data) {
    final Map<String, Integer> pus = new TreeMap<>();
    final Resource pu = data.getResourceList().getResource(PUS);
    if (pu != null) {
      for (final PlayerID player : data.getPlayerList().getPlayers()) {
        pus.put(player.getName(), player.getResources().getQuantity(pu));
      }
    }
    return pus;
  }

  private static String territoryJson(final Territory territory) {
    // Keyed by (owner, type); "" sorts the neutral owner first and cannot be a player's name in a valid game.
    final Map<String, Map<String, Integer>> counts = new TreeMap<>();
    for (final Unit unit : territory.getUnits().getUnits()) {
      final String owner = ownerName(unit.getOwner());
      counts.computeIfAbsent(owner == null ? "" : owner, k -> new TreeMap<>())
          .merge(unit.getType().getName(), 1, Integer::sum);
    }
    final StringBuilder units = new StringBuilder("[");
    for (final Map.Entry<String, Map<String, Integer>> byOwner : counts.entrySet()) {
      final String owner = byOwner.getKey().isEmpty() ? null : byOwner.getKey();
      for (final Map.Entry<String, Integer> byType : byOwner.getValue().entrySet()) {
        if (units.length() > 1) {
          units.append(", ");
        }
        units.append("{\"count\": ").append(byType.getValue())
            .append(", \"owner\": ").append(string(owner))
            .append(", \"type\": ").append(string(byType.getKey())).append('}');
      }
    }
    units.append(']');
    return "{\"owner\": " + string(ownerName(territory.getOwner())) + ", \"units\": " + units
        + ", \"water\": " + territory.isWater() + "}";
  }

  /** What one file gave; filled in by the worker thread, printed by the main thread. */
  private static final class Reading {
    final String file;
    volatile boolean ok;
    volatile String error;
    volatile String gameName;
    volatile List<String> dtdErrors = new ArrayList<>();
    volatile Map<String, String> territories;
    volatile Map<String, Integer> pus;
    volatile Map<String, String> properties;
    volatile String rules;

    Reading(final String file) {
      this.file = file;
    }

    void fail(final String message) {
      ok = false;
      error = message;
    }

    void describe(final GameData data) throws ReflectiveOperationException {
      final Map<String, String> territories = territoriesOf(data);
      final Map<String, Integer> pus = pusOf(data);
      final Map<String, String> properties = propertiesOf(data.getProperties());
      this.territories = territories;
      this.pus = pus;
      this.properties = properties;
      try {
        rules = EngineRules.rulesJson(data);
      } catch (final RuntimeException e) {
        // The file was read; only the rules report failed. Say so rather than report no rules.
        rules = "{\"error\": " + string(rootMessage(e)) + "}";
      }
      ok = true;
    }

    /** Constant and editable properties, editable winning as in GameProperties.get. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> propertiesOf(final GameProperties properties)
        throws ReflectiveOperationException {
      final Map<String, String> values = new TreeMap<>();
      // Constant properties have no public accessor.
      final Field field = GameProperties.class.getDeclaredField(GameProperties.CONSTANT_PROPERTIES_FIELD_NAME);
      field.setAccessible(true);
      for (final Map.Entry<String, Object> entry : ((Map<String, Object>) field.get(properties)).entrySet()) {
        values.put(entry.getKey(), valueString(entry.getValue()));
      }
      // GameData's constructor puts a random UUID here; it is not from the file and would make output differ.
      values.remove(GameData.GAME_UUID);
      for (final IEditableProperty property : properties.getEditableProperties()) {
        values.put(property.getName(), valueString(property.getValue()));
      }
      return values;
    }

    private static String valueString(final Object value) {
      if (value instanceof Color) {
        // The file writes colours as hexadecimal RGB; Color.toString would not round-trip.
        return String.format("%06X", ((Color) value).getRGB() & 0xFFFFFF);
      }
      return String.valueOf(value);
    }

    String toJson() {
      final StringBuilder out = new StringBuilder("{");
      out.append("\"dtd_errors\": [");
      for (int i = 0; i < dtdErrors.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(string(dtdErrors.get(i)));
      }
      out.append("], \"error\": ").append(string(error));
      out.append(", \"file\": ").append(string(file));
      out.append(", \"game_name\": ").append(string(gameName));
      out.append(", \"ok\": ").append(ok);
      out.append(", \"properties\": ");
      if (properties == null) {
        out.append("null");
      } else {
        object(out, properties, EngineHarness::string);
      }
      out.append(", \"pus\": ");
      if (pus == null) {
        out.append("null");
      } else {
        object(out, pus, String::valueOf);
      }
      out.append(", \"rules\": ").append(rules == null ? "null" : rules);
      out.append(", \"territories\": ");
      if (territories == null) {
        out.append("null");
      } else {
        object(out, territories, json -> json);
      }
      return out.append('}').toString();
    }
  }

  static <V> void object(final StringBuilder out, final Map<String, V> sorted,
      final java.util.function.Function<V, String> value) {
    out.append('{');
    boolean first = true;
    for (final Map.Entry<String, V> entry : sorted.entrySet()) {
      out.append(first ? "" : ", ").append(string(entry.getKey())).append(": ").append(value.apply(entry.getValue()));
      first = false;
    }
    out.append('}');
  }

  /** A JSON string literal; non-ASCII is escaped too so the output is plain ASCII whatever the locale. */
  static String string(final String text) {
    if (text == null) {
      return "null";
    }
    final StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      final char c = text.charAt(i);
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        default:
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
      }
    }
    return out.append('"').toString();
  }
}
