import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Savegames written by TripleA 2.x itself (issue 16): run with a 2.x jar on the class path, game files and the
 * savegame to write one pair a line on standard input ("game.xml TAB out.tsvg"; without the savegame, the game as
 * parsed is reported: TripleA 2.x's reading; with a third field, a maps folder, a 2.7 bot's acceptance of the save).
 *
 * <p>For each pair: the game is parsed as the game selector parses it ({@code GameParser.parse}), checked as the
 * 2.x selector checks it ({@code GameParsingValidation}), written with {@code GameDataManager.saveGame} and read
 * back with {@code GameDataManager.loadGame}. One JSON line answers: the validation errors, and what the loaded
 * save holds (game name, round, step, owners, units, PUs) for the caller to compare with the game it wrote.
 * Reflection and java.* only, so it compiles beside the 1.9 harness and loads with 2.x classes.
 */
public final class EngineSave27 {
  private EngineSave27() {}

  public static void main(final String[] args) throws Exception {
    final PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
    System.setOut(System.err);
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    final Class<?> parser = Class.forName("games.strategy.engine.data.gameparser.GameParser");
    final Method parse = parser.getMethod("parse", Path.class, boolean.class);
    final Class<?> gameData = Class.forName("games.strategy.engine.data.GameData");
    final Class<?> validation = Class.forName("games.strategy.engine.data.gameparser.GameParsingValidation");
    final Class<?> manager = Class.forName("games.strategy.engine.framework.GameDataManager");
    final Method save = manager.getMethod("saveGame", OutputStream.class, gameData);
    final Method load = manager.getMethod("loadGame", Path.class);
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isEmpty()) {
        continue;
      }
      final String[] pair = line.split("\t");
      final StringBuilder out = new StringBuilder("{");
      try {
        final Object data = ((Optional<?>) parse.invoke(null, Paths.get(pair[0]), false))
            .orElseThrow(() -> new IllegalStateException("TripleA does not parse " + pair[0]));
        final List<?> errors = (List<?>) validation.getMethod("validate").invoke(validation.getConstructor(gameData).newInstance(data));
        final StringBuilder listed = new StringBuilder();
        for (final Object error : errors) {
          listed.append(listed.length() > 0 ? ", " : "").append(quote(error));
        }
        out.append("\"validation\": [").append(listed).append("]");
        if (pair.length < 2 || pair[1].isEmpty()) {
          // No savegame asked for: the game as the engine parsed it (its reading, for the engines' agreement).
          out.append(", ").append(state(data));
        } else {
          final Path target = Paths.get(pair[1]);
          try (OutputStream stream = Files.newOutputStream(target)) {
            save.invoke(null, stream, data);
          }
          final Object loaded = ((Optional<?>) load.invoke(null, target))
              .orElseThrow(() -> new IllegalStateException("TripleA does not load the save it wrote"));
          out.append(", ").append(state(loaded));
          if (pair.length > 2 && !pair[2].isEmpty()) {
            // A 2.7 bot's check on an uploaded save (HeadlessGameServer.checkGameIsAvailableOnServer): its game
            // name is one of the games of the installed maps (InstalledMapsListing.hasGame).
            final Class<?> listing = Class.forName("games.strategy.engine.framework.map.file.system.loader.InstalledMapsListing");
            final Object maps = listing.getMethod("parseMapFiles", Path.class).invoke(null, Paths.get(pair[2]));
            final Object name = call(loaded, "getGameName");
            out.append(", \"bot\": {\"has_game\": ").append(listing.getMethod("hasGame", String.class).invoke(maps, name))
                .append(", \"map_installed\": ").append(listing.getMethod("isMapInstalled", String.class).invoke(maps, call(loaded, "getMapName")))
                .append('}');
          }
        }
      } catch (final Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
          root = root.getCause();
        }
        out.setLength(0);
        out.append("{\"error\": ").append(quote(root.getClass().getName() + ": " + root.getMessage()));
      }
      json.println(out.append('}'));
    }
    json.flush();
    System.exit(0);
  }

  /** Game name, round, step, every territory's owner and units, every player's PUs, as JSON members. */
  private static String state(final Object data) throws Exception {
    final Object sequence = call(data, "getSequence");
    final StringBuilder out = new StringBuilder();
    out.append("\"game_name\": ").append(quote(call(data, "getGameName")));
    out.append(", \"round\": ").append(call(sequence, "getRound"));
    out.append(", \"step\": ").append(quote(call(call(sequence, "getStep"), "getName")));
    final StringBuilder territories = new StringBuilder();
    for (final Object territory : (Collection<?>) call(call(data, "getMap"), "getTerritories")) {
      final Map<String, Integer> units = new TreeMap<>();
      for (final Object unit : (Collection<?>) call(territory, "getUnits")) {
        final String key = playerName(call(unit, "getOwner")) + "\u0000" + call(call(unit, "getType"), "getName");
        units.merge(key, 1, Integer::sum);
      }
      final StringBuilder counted = new StringBuilder();
      for (final Map.Entry<String, Integer> entry : units.entrySet()) {
        final String[] key = entry.getKey().split("\u0000", -1);
        counted.append(counted.length() > 0 ? ", " : "").append('[').append(key[0].equals("null") ? "null" : quote(key[0]))
            .append(", ").append(quote(key[1])).append(", ").append(entry.getValue()).append(']');
      }
      final String owner = playerName(call(territory, "getOwner"));
      territories.append(territories.length() > 0 ? ", " : "").append(quote(call(territory, "getName"))).append(": {\"owner\": ")
          .append(owner.equals("null") ? "null" : quote(owner)).append(", \"units\": [").append(counted).append("]}");
    }
    out.append(", \"territories\": {").append(territories).append('}');
    final StringBuilder pus = new StringBuilder();
    for (final Object player : (Collection<?>) call(call(data, "getPlayerList"), "getPlayers")) {
      final Object resources = call(player, "getResources");
      final int quantity = (Integer) resources.getClass().getMethod("getQuantity", String.class).invoke(resources, "PUs");
      pus.append(pus.length() > 0 ? ", " : "").append(quote(call(player, "getName"))).append(": ").append(quantity);
    }
    return out.append(", \"pus\": {").append(pus).append('}').toString();
  }

  /** A player's name, or "null" for TripleA's neutral player (as the 1.9 harness reports owner None). */
  private static String playerName(final Object player) throws Exception {
    return player == null || (Boolean) call(player, "isNull") ? "null" : String.valueOf(call(player, "getName"));
  }

  private static Object call(final Object target, final String method) throws Exception {
    final Method found = target.getClass().getMethod(method);
    found.setAccessible(true);
    return found.invoke(target);
  }

  private static String quote(final Object value) {
    final String text = String.valueOf(value);
    final StringBuilder out = new StringBuilder("\"");
    for (final char ch : text.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        out.append('\\').append(ch);
      } else if (ch < 0x20) {
        out.append(String.format("\\u%04x", (int) ch));
      } else {
        out.append(ch);
      }
    }
    return out.append('"').toString();
  }
}
