import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import games.strategy.engine.ClientFileSystemHelper;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.framework.message.PlayerListing;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.engine.random.IRandomSource;
import games.strategy.net.HeadlessServerMessenger;
import games.strategy.net.Messengers;
import games.strategy.triplea.Constants;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.settings.ClientSetting;

/**
 * Plays TripleA game files in the real TripleA engine (1.9), every power played by the engine's own AI,
 * and prints how it went, one JSON object per file and line, so that kremlin-triplea can show that the
 * games it writes are not only read but played.
 *
 * <p>Usage: {@code java -cp triplea.jar:. EnginePlayer FILE...}; with no arguments the paths are read from
 * standard input, one a line. Run it headless ({@code -Djava.awt.headless=true -Dtriplea.headless=true})
 * with the TripleA {@code bin} folder as working directory and {@code user.home} pointing at a scratch
 * folder: the engine writes preferences, autosaves and (here) empty map folders below it. Settings:
 * {@code -Dkremlin.rounds=1}, {@code -Dkremlin.gameTimeoutSeconds=300},
 * {@code -Dkremlin.playerType="Fast (AI)"} and, to make the dice repeatable, {@code -Dkremlin.seed=N}
 * (the AI itself still is not).
 *
 * <p>A game is started as the engine's LocalLauncher does it: the game loader makes the players, a
 * ServerGame on a HeadlessServerMessenger runs them, and the loader's headless startGame adds the display,
 * sound channel and edit delegate. The game runs in its own thread and stops as the step that begins the
 * first round past the limit is announced, before that step's delegate starts.
 *
 * <p>The engine swallows many errors: it prints their stack traces, logs them, or lets them end a thread.
 * All three are caught here (System.out and System.err record every Throwable printed on them, a
 * java.util.logging handler records warnings that carry one, and a default uncaught-exception handler
 * records the rest) and make the game fail. A game that is still running after the time-out is reported,
 * and then this program exits, since the stuck game cannot be stopped safely; the caller starts a fresh
 * JVM for the files that are left.
 */
public final class EnginePlayer {
  private static final int ROUNDS = Integer.getInteger("kremlin.rounds", 1);
  /** Seconds, a decimal number. */
  private static final String TIMEOUT = System.getProperty("kremlin.gameTimeoutSeconds", "300");
  private static final String PLAYER_TYPE = System.getProperty("kremlin.playerType", TripleA.FAST_COMPUTER_PLAYER_TYPE);
  private static final Long SEED = Long.getLong("kremlin.seed");
  private static final long POLL_MILLISECONDS = 50;

  /** The game being played; the error hooks report into it. */
  private static volatile Play current;

  private EnginePlayer() {}

  public static void main(final String[] args) throws Exception {
    final PrintStream json =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
    // ClientLogger captures System.out and System.err in static fields when it is first loaded, so both
    // must be replaced before any engine class is; standard output carries only the JSON lines.
    final OutputStream stderr = new FileOutputStream(FileDescriptor.err);
    System.setOut(new RecordingStream(stderr, "printed"));
    System.setErr(new RecordingStream(stderr, "printed"));
    Thread.setDefaultUncaughtExceptionHandler(
        (thread, thrown) -> report("uncaught in thread " + thread.getName(), thrown));
    Logger.getLogger("").addHandler(new RecordingHandler());

    if (ROUNDS < 1) {
      throw new IllegalArgumentException("kremlin.rounds must be at least 1, not " + ROUNDS);
    }
    final long timeoutNanoseconds = (long) (Double.parseDouble(TIMEOUT) * 1e9);
    // The AI sleeps this long after each move so that a human can follow; user.home is a scratch folder.
    ClientSetting.AI_PAUSE_DURATION.save(0);

    final List<String> paths = new ArrayList<>();
    if (args.length > 0) {
      Collections.addAll(paths, args);
    } else {
      final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (!line.isEmpty()) {
          paths.add(line);
        }
      }
    }

    for (final String path : paths) {
      final Play play = new Play(path);
      final long start = System.nanoTime();
      final long deadline = start + timeoutNanoseconds;
      current = play;
      final Thread thread = new Thread(play::run, "kremlin-engine-game");
      thread.setDaemon(true);
      thread.start();
      boolean timedOut = false;
      while (thread.isAlive()) {
        thread.join(POLL_MILLISECONDS);
        if (!thread.isAlive()) {
          break;
        }
        if (System.nanoTime() - deadline > 0) {
          timedOut = true;
          break;
        }
        // A victory makes the engine stop stepping and wait, in startGame, to be stopped.
        final ServerGame game = play.game;
        if (game != null && !game.isGameSequenceRunning() && !play.gameOver) {
          play.gameOver = true;
          game.stopGame();
        }
      }
      current = null;
      System.err.printf("kremlin-engine-player: %d ms: %s%n", (System.nanoTime() - start) / 1_000_000, path);
      if (timedOut) {
        json.println(play.toJson("timed out after " + TIMEOUT + " s", true));
        json.flush();
        System.exit(0);
      }
      json.println(play.toJson(null, false));
    }
    json.flush();
    // The engine starts background threads (messengers, timers) that would keep the JVM alive.
    System.exit(0);
  }

  /** Charges an error the engine did not let through to the game being played (if any: one may come late). */
  static void report(final String how, final Throwable thrown) {
    final Play play = current;
    if (play != null) {
      play.exceptions.add(how + ": " + describe(thrown));
    }
  }

  /** One line: the exception and its causes, and where the first of them was thrown. */
  static String describe(final Throwable thrown) {
    final StringBuilder out = new StringBuilder();
    Throwable each = thrown;
    for (int depth = 0; each != null && depth < 10; depth++) {
      if (depth > 0) {
        out.append("; caused by ");
      }
      final String message = each.getMessage();
      out.append(each.getClass().getName());
      if (message != null && !message.trim().isEmpty()) {
        out.append(": ").append(message.trim().split("\\R", 2)[0]);
      }
      each = each.getCause() == each ? null : each.getCause();
    }
    final StackTraceElement[] trace = thrown.getStackTrace();
    if (trace.length > 0) {
      out.append(" (at ").append(trace[0]).append(')');
    }
    return out.toString();
  }

  /** Passes everything to standard error, and reports every Throwable printed on it (printStackTrace does that). */
  private static final class RecordingStream extends PrintStream {
    private final String how;

    RecordingStream(final OutputStream out, final String how) throws java.io.UnsupportedEncodingException {
      super(out, true, StandardCharsets.UTF_8.name());
      this.how = how;
    }

    @Override
    public void println(final Object x) {
      if (x instanceof Throwable) {
        report(how, (Throwable) x);
      }
      super.println(x);
    }
  }

  /** Reports java.util.logging records that carry a Throwable, and severe ones. */
  private static final class RecordingHandler extends Handler {
    @Override
    public void publish(final LogRecord record) {
      final Level level = record.getLevel();
      final Throwable thrown = record.getThrown();
      if (thrown != null && level.intValue() >= Level.WARNING.intValue()) {
        report("logged by " + record.getLoggerName(), thrown);
      } else if (level.intValue() >= Level.SEVERE.intValue()) {
        final Play play = current;
        if (play != null) {
          play.exceptions.add("logged by " + record.getLoggerName() + ": " + record.getMessage());
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  /** java.util.Random seeded once per game, for repeatable dice. */
  private static final class SeededRandomSource implements IRandomSource {
    private final Random random;

    SeededRandomSource(final long seed) {
      random = new Random(seed);
    }

    @Override
    public synchronized int getRandom(final int max, final String annotation) {
      return random.nextInt(max);
    }

    @Override
    public synchronized int[] getRandom(final int max, final int count, final String annotation) {
      final int[] numbers = new int[count];
      for (int i = 0; i < count; i++) {
        numbers[i] = random.nextInt(max);
      }
      return numbers;
    }
  }

  /** Thrown by the step listener to stop the engine before the first step past the last round starts. */
  private static final class RoundLimitReached extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RoundLimitReached() {
      super("kremlin round limit", null, false, false);
    }
  }

  /** One game: run in its own thread, printed by the main thread. */
  private static final class Play {
    final String file;
    final List<String> exceptions = Collections.synchronizedList(new ArrayList<>());
    final List<String> steps = Collections.synchronizedList(new ArrayList<>());
    volatile ServerGame game;
    volatile boolean gameOver;
    volatile String error;
    volatile int roundsPlayed;
    volatile String finalState;

    Play(final String file) {
      this.file = file;
    }

    void run() {
      final GameData data;
      final GameParser parser = new GameParser(Paths.get(file).getFileName().toString());
      try (InputStream stream = new FileInputStream(file)) {
        data = parser.parse(stream, new AtomicReference<>(), false);
      } catch (final Throwable e) {
        error = "the engine cannot read the game: " + EngineHarness.rootMessage(e);
        return;
      }
      final int firstRound = data.getSequence().getRound();
      boolean reachedLimit = false;
      try {
        final Map<String, String> playerTypes = new HashMap<>();
        for (final PlayerID player : data.getPlayerList().getPlayers()) {
          playerTypes.put(player.getName(), PLAYER_TYPE);
        }
        final PlayerListing listing = new PlayerListing(null, data.getPlayerList().getPlayersEnabledListing(),
            playerTypes, data.getGameVersion(), data.getGameName(), String.valueOf(firstRound), null, null);
        data.doPreGameStartDataModifications(listing);
        provideMapFolder(data);
        final Set<IGamePlayer> players = data.getGameLoader().createPlayers(playerTypes);
        final ServerGame game =
            new ServerGame(data, players, new HashMap<>(), new Messengers(new HeadlessServerMessenger()));
        if (SEED != null) {
          game.setRandomSource(new SeededRandomSource(SEED));
        }
        game.addGameStepListener((stepName, delegateName, player, round, displayName) -> {
          if (round >= firstRound + ROUNDS) {
            throw new RoundLimitReached();
          }
          steps.add(stepName);
        });
        data.getGameLoader().startGame(game, players, true);
        this.game = game;
        try {
          game.startGame();
        } catch (final RoundLimitReached e) {
          reachedLimit = true;
        }
      } catch (final Throwable e) {
        exceptions.add("thrown by the game: " + describe(e));
        error = "the engine failed in round " + data.getSequence().getRound() + ": " + EngineHarness.rootMessage(e);
      }
      roundsPlayed = reachedLimit ? ROUNDS : Math.max(0, data.getSequence().getRound() - firstRound);
      try {
        finalState = stateJson(data);
      } catch (final Throwable e) {
        exceptions.add("kremlin harness describing the game: " + describe(e));
      }
      final ServerGame game = this.game;
      if (game != null && !game.isGameOver()) {
        // Tells the players and delegates the game is over; nothing of the next round has started.
        game.stopGame();
      }
    }

    /**
     * The headless game loader looks the map up among the downloaded maps and, not finding it, asks the
     * user (a dialog) to download it. Headless play needs none of the map's files, so an empty folder of
     * the map's name, in the scratch user folder, satisfies it.
     */
    private static void provideMapFolder(final GameData data) {
      final Object mapName = data.getProperties().get(Constants.MAP_NAME);
      if (mapName instanceof String && !((String) mapName).trim().isEmpty()) {
        final File folder = new File(ClientFileSystemHelper.getUserMapsFolder(), (String) mapName);
        if (!folder.exists() && !folder.mkdirs()) {
          throw new IllegalStateException("kremlin harness cannot create the map folder " + folder);
        }
      }
    }

    private static String stateJson(final GameData data) {
      final StringBuilder out = new StringBuilder("{\"pus\": ");
      EngineHarness.object(out, EngineHarness.pusOf(data), String::valueOf);
      out.append(", \"territories\": ");
      EngineHarness.object(out, EngineHarness.territoriesOf(data), text -> text);
      // The rules as they stand after play: technologies a trigger granted, for instance.
      out.append(", \"rules\": ").append(EngineRules.rulesJson(data));
      return out.append('}').toString();
    }

    String toJson(final String timeout, final boolean timedOut) {
      final List<String> exceptions;
      final List<String> steps;
      synchronized (this.exceptions) {
        exceptions = new ArrayList<>(this.exceptions);
      }
      synchronized (this.steps) {
        steps = new ArrayList<>(this.steps);
      }
      String error = timeout != null ? timeout : this.error;
      if (error == null && !exceptions.isEmpty()) {
        error = "the engine reported " + exceptions.size() + " exception(s), the first " + exceptions.get(0);
      }
      final StringBuilder out = new StringBuilder("{");
      out.append("\"error\": ").append(EngineHarness.string(error));
      out.append(", \"exceptions\": ");
      list(out, exceptions);
      out.append(", \"file\": ").append(EngineHarness.string(file));
      out.append(", \"final\": ").append(timedOut || finalState == null ? "null" : finalState);
      out.append(", \"game_over\": ").append(gameOver);
      out.append(", \"ok\": ").append(error == null);
      out.append(", \"rounds_played\": ").append(timedOut ? 0 : roundsPlayed);
      out.append(", \"steps\": ");
      list(out, steps);
      out.append(", \"timed_out\": ").append(timedOut);
      return out.append('}').toString();
    }

    private static void list(final StringBuilder out, final List<String> items) {
      out.append('[');
      for (int i = 0; i < items.size(); i++) {
        out.append(i == 0 ? "" : ", ").append(EngineHarness.string(items.get(i)));
      }
      out.append(']');
    }
  }
}
