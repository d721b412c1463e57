import games.strategy.engine.ClientFileSystemHelper;
import games.strategy.engine.data.GameData;
import games.strategy.engine.framework.GameDataManager;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.framework.startup.ui.PlayerTypes;
import games.strategy.engine.player.Player;
import games.strategy.engine.random.PlainRandomSource;
import games.strategy.net.LocalNoOpMessenger;
import games.strategy.net.Messengers;
import games.strategy.net.websocket.ClientNetworkBridge;
import games.strategy.triplea.settings.ClientSetting;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.prefs.Preferences;
import org.triplea.game.server.HeadlessLaunchAction;

/**
 * TripleA 2.7 plays one round of a savegame with every power played by its Fast AI (issue 16): compiled against,
 * and run with, the 2.7 jar. Savegames one a line on standard input; one JSON line each: the steps played, the
 * round reached, and the first exception the engine threw. The recipe is TripleA's own smoke test's
 * (../shared/triplea-engine-2.7/README.md, "Running AI players").
 */
public final class EnginePlay27 {
  private EnginePlay27() {}

  public static void main(final String[] args) throws Exception {
    final PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
    System.setOut(System.err);
    final Path root = Files.createTempDirectory("kremlin-triplea-27-");
    Files.createFile(root.resolve(".triplea-root"));
    Files.createDirectories(root.resolve("assets"));
    ClientFileSystemHelper.setCodeSourceFolder(root);
    ClientSetting.setPreferences(Preferences.userRoot().node("kremlin-triplea-play27"));
    ClientSetting.aiMovePauseDuration.setValue(0);
    ClientSetting.aiCombatStepPauseDuration.setValue(0);
    ClientSetting.saveGamesFolderPath.setValue(root.resolve("saves"));
    HeadlessLaunchAction.setSkipMapResourceLoading(true);
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isEmpty()) {
        continue;
      }
      final StringBuilder steps = new StringBuilder();
      String error = null;
      int round = 0;
      try {
        final String file = line;
        final GameData data = GameDataManager.loadGame(Paths.get(file))
            .orElseThrow(() -> new IllegalStateException("TripleA 2.7 does not load " + file));
        final Map<String, PlayerTypes.Type> types = new HashMap<>();
        for (final var player : data.getPlayerList().getPlayers()) {
          types.put(player.getName(), PlayerTypes.FAST_AI);
        }
        final Set<Player> players = data.getGameLoader().newPlayers(types);
        final HeadlessLaunchAction launch = new HeadlessLaunchAction(null);
        final ServerGame game = new ServerGame(
            data, players, new HashMap<>(), new Messengers(new LocalNoOpMessenger()), ClientNetworkBridge.NO_OP_SENDER, launch);
        game.setDelegateAutosavesEnabled(false);
        game.setRandomSource(new PlainRandomSource());
        data.getGameLoader().startGame(game, players, launch, null);
        game.setUpGameForRunningSteps();
        final int start = data.getSequence().getRound();
        while (!game.isGameOver() && data.getSequence().getRound() == start) {
          steps.append(steps.length() > 0 ? ", " : "").append(quote(data.getSequence().getStep().getName()));
          game.runNextStep();
        }
        round = data.getSequence().getRound();
        game.stopGame();
      } catch (final Throwable e) {
        Throwable root2 = e;
        while (root2.getCause() != null && root2.getCause() != root2) {
          root2 = root2.getCause();
        }
        error = root2.getClass().getName() + ": " + root2.getMessage();
      }
      json.println("{\"steps\": [" + steps + "], \"round\": " + round + ", \"error\": " + (error == null ? "null" : quote(error)) + "}");
    }
    json.flush();
    System.exit(0);
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
