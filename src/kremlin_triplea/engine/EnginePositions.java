import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;

import games.strategy.engine.data.Change;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.engine.delegate.IDelegateBridge;
import games.strategy.engine.display.IDisplay;
import games.strategy.engine.gamePlayer.IRemotePlayer;
import games.strategy.engine.history.IDelegateHistoryWriter;
import games.strategy.engine.random.IRandomStats;
import games.strategy.sound.ISound;
import games.strategy.triplea.attachments.AbstractConditionsAttachment;
import games.strategy.triplea.attachments.ICondition;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TechAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.DelegateFinder;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.delegate.MoveValidator;
import games.strategy.triplea.delegate.TechAdvance;
import games.strategy.triplea.delegate.TechTracker;
import games.strategy.triplea.player.ITripleAPlayer;
import games.strategy.triplea.ui.display.ITripleADisplay;

/**
 * Sets up positions in a game with the real TripleA engine (1.9) and asks the engine what its rules make of
 * them: whether an objective holds for a power and what the power is paid at the end of its turn, a power's
 * production frontier before and after a technology, whether a unit may pass a canal, what a unit is worth
 * for a power, whether the round ends the game. The house-rule tests (tests/test_house_rules_positions.py)
 * drive it through kremlin_triplea.engine.positions.
 *
 * <p>Commands come on standard input, one a line, fields separated by tabs; each prints exactly one JSON line
 * (an object; {"error": ...} when the command failed, and the batch goes on):
 * <pre>
 * game    FILE                          start a position: the game as the file holds it (parsed afresh)
 * owner   TERRITORY PLAYER              give the territory to PLAYER ("" = TripleA's neutral player)
 * add     TERRITORY PLAYER TYPE COUNT   place units ("" = neutral owner)
 * remove  TERRITORY PLAYER TYPE COUNT   take units away
 * step    STEP                          run that step of the sequence (its delegate's start and end) as the game does
 * objectives PLAYER                     every national objective of PLAYER: value and whether it holds now
 * frontier PLAYER                       PLAYER's production frontier: name and price of each unit
 * grant   PLAYER TECH                   PLAYER gets the technology (TechTracker.addAdvance: what research does)
 * canal   FROM TO PLAYER TYPE           whether one such unit may sail FROM -> TO (MoveValidator.validateCanal)
 * unit    PLAYER TYPE                   the unit type's values for PLAYER, with its techs (attack, defence,
 *                                       movement, blitz, hit points, interceptor/escort and air-battle values, dice rolled, AA hit)
 * techs   PLAYER                        the technologies PLAYER owns
 * units   TERRITORY                     the territory's owner and units ("damaged": "owner|type" -> hits taken)
 * damage  TERRITORY PLAYER TYPE HITS    one such unit takes HITS hits, as a battle records them (ChangeFactory.unitsHit)
 * pus     PLAYER                        PLAYER's PUs
 * rule    GETTER                        a game option as the engine's delegates read it: the static
 *                                       games.strategy.triplea.Properties.GETTER(GameData), e.g. getAATerritoryRestricted
 * techcost PLAYER                       the price of one research die or token for PLAYER (TechAttachment.getTechCost)
 * move    STEP PLAYER TYPE T1 T2 ...     during STEP, whether one of PLAYER's TYPE units in T1 may move T1 -> T2 -> ...
 *                                       (MoveValidator.validateMove, combat or not as the step says)
 * place   STEP PLAYER TYPE TERRITORY      during STEP (a place step), whether a new such unit of PLAYER may be placed in
 *                                       TERRITORY (AbstractPlaceDelegate.canUnitsBePlaced; "why" when not)
 * airbattle TERRITORY ATTACKER          whether a raid by ATTACKER on TERRITORY may be met by interceptors in an air battle
 *                                       (AirBattle.territoryCouldPossiblyHaveAirBattleDefenders, bombing)
 * aafire  STEP PLAYER TYPE T1 T2 ...     during STEP (a combat move), the territories whose AA guns fire at one such unit
 *                                       of PLAYER flying T1 -> T2 -> ... (AAInMoveUtil.getTerritoriesWhereAaWillFire)
 * takeover TERRITORY PLAYER             PLAYER conquers the territory as a won battle does (BattleTracker.takeOver:
 *                                       capital loot, liberation); answers the territory's owner afterwards
 * </pre>
 * A delegate run by {@code step} gets a bridge that performs its changes on the game, records its history
 * lines and answers for every player as a player who does nothing would; dice come from a fixed seed.
 */
public final class EnginePositions {
  private static GameData data;

  private EnginePositions() {}

  public static void main(final String[] args) throws Exception {
    final PrintStream json =
        new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
    // The engine prints freely: standard output carries only the answers.
    System.setOut(System.err);
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isEmpty()) {
        continue;
      }
      String answer;
      try {
        answer = run(line.split("\t", -1));
      } catch (final Throwable e) {
        answer = "{\"error\": " + string(line.split("\t", 2)[0] + ": " + describe(e)) + "}";
      }
      json.println(answer);
    }
    json.flush();
    // The engine starts background threads that would keep the JVM alive.
    System.exit(0);
  }

  private static String run(final String[] c) throws Exception {
    switch (c[0]) {
      case "game":
        return game(c[1]);
      case "owner":
        change(ChangeFactory.changeOwner(territory(c[1]), player(c[2])));
        return "{}";
      case "add":
        change(ChangeFactory.addUnits(territory(c[1]), unitType(c[3]).create(Integer.parseInt(c[4]), player(c[2]))));
        return "{}";
      case "remove":
        return remove(territory(c[1]), player(c[2]), unitType(c[3]), Integer.parseInt(c[4]));
      case "step":
        return step(c[1]);
      case "objectives":
        return objectives(player(c[1]));
      case "frontier":
        return frontier(player(c[1]));
      case "grant":
        return grant(player(c[1]), c[2]);
      case "canal":
        return canal(territory(c[1]), territory(c[2]), player(c[3]), unitType(c[4]));
      case "unit":
        return unit(player(c[1]), unitType(c[2]));
      case "techs":
        return techs(player(c[1]));
      case "units":
        return units(territory(c[1]));
      case "damage":
        return damage(territory(c[1]), player(c[2]), unitType(c[3]), Integer.parseInt(c[4]));
      case "pus":
        return "{\"pus\": " + player(c[1]).getResources().getQuantity(data.getResourceList().getResource("PUs")) + "}";
      case "rule":
        return "{\"value\": " + games.strategy.triplea.Properties.class.getMethod(c[1], GameData.class).invoke(null, data) + "}";
      case "techcost":
        return "{\"cost\": " + TechAttachment.get(player(c[1])).getTechCost() + "}";
      case "move":
        return move(c);
      case "place":
        return place(c[1], player(c[2]), unitType(c[3]), territory(c[4]));
      case "airbattle":
        return airBattle(territory(c[1]), player(c[2]));
      case "aafire":
        return aaFire(c);
      case "takeover":
        return takeover(territory(c[1]), player(c[2]));
      default:
        throw new IllegalArgumentException("unknown command " + c[0]);
    }
  }

  private static String game(final String file) throws Exception {
    // Every position starts from the game as written. A copy of a parsed game (GameDataUtils.cloneGameData)
    // would be quicker, but the copy of a classic game fails in 1.9 (UnitType.hashCode during
    // deserialization, before the type has its name): the file is parsed afresh for each position.
    final GameParser parser = new GameParser(Paths.get(file).getFileName().toString());
    try (InputStream stream = new FileInputStream(file)) {
      data = parser.parse(stream, new AtomicReference<>(), false);
    }
    return "{}";
  }

  private static void change(final Change change) {
    data.performChange(change);
  }

  private static String remove(final Territory territory, final PlayerID owner, final UnitType type, final int count) {
    final List<Unit> found = new ArrayList<>();
    for (final Unit unit : territory.getUnits().getUnits()) {
      if (found.size() < count && unit.getType().equals(type) && unit.getOwner().equals(owner)) {
        found.add(unit);
      }
    }
    if (found.size() < count) {
      throw new IllegalArgumentException(territory.getName() + " holds " + found.size() + " " + type.getName() + " of "
          + owner.getName() + ", not " + count);
    }
    change(ChangeFactory.removeUnits(territory, found));
    return "{}";
  }

  /** Makes STEP the game's current step, without running it. */
  private static void goTo(final String name) throws Exception {
    int index = -1;
    for (int i = 0; i < data.getSequence().size(); i++) {
      if (data.getSequence().getStep(i).getName().equals(name)) {
        index = i;
        break;
      }
    }
    if (index < 0) {
      throw new IllegalArgumentException("the game has no step " + name);
    }
    // GameSequence.setStepIndex is the engine's own way to a step (package-private).
    final Method setStepIndex = data.getSequence().getClass().getDeclaredMethod("setStepIndex", int.class);
    setStepIndex.setAccessible(true);
    setStepIndex.invoke(data.getSequence(), index);
  }

  /** Runs one step of the sequence as the game would: its delegate's start and end, for its player. */
  private static String step(final String name) throws Exception {
    goTo(name);
    final GameStep step = data.getSequence().getStep();
    final Bridge bridge = new Bridge(step);
    final Map<String, String> before = pus();
    final IDelegate delegate = step.getDelegate();
    delegate.setDelegateBridgeAndPlayer(bridge);
    delegate.start();
    delegate.end();
    final Map<String, String> fields = new TreeMap<>();
    fields.put("pus_before", object(before));
    fields.put("pus_after", object(pus()));
    fields.put("history", strings(bridge.history));
    boolean over = false;
    final TreeSet<String> winners = new TreeSet<>();
    if (delegate instanceof EndRoundDelegate && ((EndRoundDelegate) delegate).getWinners() != null) {
      over = true;
      for (final PlayerID winner : ((EndRoundDelegate) delegate).getWinners()) {
        winners.add(winner.getName());
      }
    }
    fields.put("game_over", String.valueOf(over || bridge.stopped));
    fields.put("winners", strings(winners));
    return object(fields);
  }

  private static Map<String, String> pus() {
    final Resource pus = data.getResourceList().getResource("PUs");
    final Map<String, String> out = new TreeMap<>();
    for (final PlayerID player : data.getPlayerList().getPlayers()) {
      out.put(player.getName(), String.valueOf(player.getResources().getQuantity(pus)));
    }
    return out;
  }

  /** The power's national objectives (RulesAttachment.getNationalObjectives), tested as its end of turn tests them. */
  private static String objectives(final PlayerID player) {
    final Collection<RulesAttachment> objectives = RulesAttachment.getNationalObjectives(player);
    final HashSet<ICondition> all =
        AbstractConditionsAttachment.getAllConditionsRecursive(new HashSet<ICondition>(objectives), null);
    final HashMap<ICondition, Boolean> tested =
        AbstractConditionsAttachment.testAllConditionsRecursive(all, null, new Bridge(data.getSequence().getStep()));
    final Map<String, String> out = new TreeMap<>();
    for (final RulesAttachment objective : objectives) {
      final Map<String, String> fields = new TreeMap<>();
      fields.put("value", String.valueOf(objective.getObjectiveValue()));
      fields.put("holds", String.valueOf(objective.isSatisfied(tested)));
      // Whose attachment each named condition turned out to be: TripleA looks names up across players.
      final Map<String, String> conditions = new TreeMap<>();
      for (final RulesAttachment condition : objective.getConditions()) {
        conditions.put(condition.getName(), string(((PlayerID) condition.getAttachedTo()).getName()));
      }
      fields.put("conditions", object(conditions));
      out.put(objective.getName(), object(fields));
    }
    return object(out);
  }

  private static String frontier(final PlayerID player) {
    final Map<String, String> prices = new TreeMap<>();
    for (final ProductionRule rule : player.getProductionFrontier().getRules()) {
      for (final NamedAttachable result : rule.getResults().keySet()) {
        prices.put(result.getName(), String.valueOf(rule.getCosts().getInt(data.getResourceList().getResource("PUs"))));
      }
    }
    final Map<String, String> fields = new TreeMap<>();
    fields.put("frontier", string(player.getProductionFrontier().getName()));
    fields.put("prices", object(prices));
    return object(fields);
  }

  private static String grant(final PlayerID player, final String name) {
    for (final TechAdvance advance : TechAdvance.getTechAdvances(data)) {
      if (advance.getProperty().equals(name) || advance.getName().equals(name)) {
        TechTracker.addAdvance(player, new Bridge(data.getSequence().getStep()), advance);
        return "{}";
      }
    }
    throw new IllegalArgumentException("the game has no technology " + name);
  }

  private static String canal(final Territory from, final Territory to, final PlayerID player, final UnitType type) {
    final Collection<Unit> units = type.create(1, player, true);
    final String refused = MoveValidator.validateCanal(new Route(from, to), units, player, data);
    return "{\"passes\": " + (refused == null) + ", \"why\": " + string(refused) + "}";
  }

  private static String unit(final PlayerID player, final UnitType type) {
    final UnitAttachment ua = UnitAttachment.get(type);
    final Map<String, String> fields = new TreeMap<>();
    fields.put("attack", String.valueOf(ua.getAttack(player)));
    fields.put("defense", String.valueOf(ua.getDefense(player)));
    fields.put("movement", String.valueOf(ua.getMovement(player)));
    fields.put("blitz", String.valueOf(ua.getCanBlitz(player)));
    fields.put("hit_points", String.valueOf(ua.getHitPoints()));
    fields.put("can_intercept", String.valueOf(ua.getCanIntercept()));
    fields.put("can_escort", String.valueOf(ua.getCanEscort()));
    fields.put("air_attack", String.valueOf(ua.getAirAttack(player)));
    fields.put("air_defense", String.valueOf(ua.getAirDefense(player)));
    fields.put("aa_attack", String.valueOf(ua.getAttackAA(player)));
    fields.put("attack_rolls", String.valueOf(ua.getAttackRolls(player)));
    fields.put("defense_rolls", String.valueOf(ua.getDefenseRolls(player)));
    return object(fields);
  }

  /** The units in a territory, counted by "owner|type" (owner "" for TripleA's neutral player), and its owner. */
  private static String units(final Territory territory) {
    final Map<String, Integer> counts = new TreeMap<>();
    for (final Unit unit : territory.getUnits().getUnits()) {
      final String owner = unit.getOwner().isNull() ? "" : unit.getOwner().getName();
      counts.merge(owner + "|" + unit.getType().getName(), 1, Integer::sum);
    }
    final Map<String, String> encoded = new TreeMap<>();
    for (final Map.Entry<String, Integer> entry : counts.entrySet()) {
      encoded.put(entry.getKey(), String.valueOf(entry.getValue()));
    }
    final Map<String, Integer> hits = new TreeMap<>();
    for (final Unit unit : territory.getUnits().getUnits()) {
      if (unit.getHits() > 0) {
        hits.merge((unit.getOwner().isNull() ? "" : unit.getOwner().getName()) + "|" + unit.getType().getName(), unit.getHits(), Integer::sum);
      }
    }
    final Map<String, String> damaged = new TreeMap<>();
    for (final Map.Entry<String, Integer> entry : hits.entrySet()) {
      damaged.put(entry.getKey(), String.valueOf(entry.getValue()));
    }
    final String owner = territory.getOwner().isNull() ? "" : territory.getOwner().getName();
    return "{\"owner\": " + string(owner) + ", \"units\": " + object(encoded) + ", \"damaged\": " + object(damaged) + "}";
  }

  private static String damage(final Territory territory, final PlayerID owner, final UnitType type, final int hits) {
    for (final Unit unit : territory.getUnits().getUnits()) {
      if (unit.getType().equals(type) && unit.getOwner().equals(owner)) {
        final games.strategy.util.IntegerMap<Unit> taken = new games.strategy.util.IntegerMap<>();
        taken.put(unit, hits);
        change(ChangeFactory.unitsHit(taken));
        return "{}";
      }
    }
    throw new IllegalArgumentException(territory.getName() + " holds no " + type.getName() + " of " + owner.getName());
  }

  /** Whether the engine's move validator allows the move (the units must be in the first territory). */
  private static String move(final String[] c) throws Exception {
    goTo(c[1]);
    final PlayerID player = player(c[2]);
    final UnitType type = unitType(c[3]);
    final List<Territory> path = new ArrayList<>();
    for (int i = 4; i < c.length; i++) {
      path.add(territory(c[i]));
    }
    Unit mover = null;
    for (final Unit unit : path.get(0).getUnits().getUnits()) {
      if (unit.getType().equals(type) && unit.getOwner().equals(player)) {
        mover = unit;
        break;
      }
    }
    if (mover == null) {
      throw new IllegalArgumentException(path.get(0).getName() + " holds no " + type.getName() + " of " + player.getName());
    }
    final List<Unit> units = new ArrayList<>();
    units.add(mover);
    final boolean nonCombat = data.getSequence().getStep().getName().endsWith("NonCombatMove");
    final games.strategy.triplea.delegate.dataObjects.MoveValidationResult result = MoveValidator.validateMove(units,
        new Route(path), player, new ArrayList<Unit>(), new HashMap<Unit, Collection<Unit>>(), nonCombat,
        new ArrayList<games.strategy.triplea.delegate.UndoableMove>(), data);
    return "{\"valid\": " + result.isMoveValid() + ", \"error\": " + string(result.getError()) + "}";
  }

  /** Whether the engine's place delegate would let the player place a new unit there. */
  private static String place(final String step, final PlayerID player, final UnitType type, final Territory where)
      throws Exception {
    goTo(step);
    final IDelegate delegate = data.getSequence().getStep().getDelegate();
    if (!(delegate instanceof games.strategy.triplea.delegate.AbstractPlaceDelegate)) {
      throw new IllegalArgumentException(step + " is not a place step");
    }
    delegate.setDelegateBridgeAndPlayer(new Bridge(data.getSequence().getStep()));
    final String refused = ((games.strategy.triplea.delegate.AbstractPlaceDelegate) delegate)
        .canUnitsBePlaced(where, type.create(1, player, true), player);
    return "{\"placed\": " + (refused == null) + ", \"why\": " + string(refused) + "}";
  }

  /** Whether the engine would fight an air battle before ATTACKER's raid on the territory. */
  private static String airBattle(final Territory territory, final PlayerID attacker) throws Exception {
    final Method could = Class.forName("games.strategy.triplea.delegate.AirBattle").getDeclaredMethod(
        "territoryCouldPossiblyHaveAirBattleDefenders", Territory.class, PlayerID.class, GameData.class, boolean.class);
    could.setAccessible(true);
    return "{\"air_battle\": " + could.invoke(null, territory, attacker, data, true) + "}";
  }

  /** Where the engine's move code would fire AA at a plane flying the route (it fires as the move is made). */
  private static String aaFire(final String[] c) throws Exception {
    goTo(c[1]);
    final PlayerID player = player(c[2]);
    final List<Territory> path = new ArrayList<>();
    for (int i = 4; i < c.length; i++) {
      path.add(territory(c[i]));
    }
    final Route route = new Route(path);
    final Collection<Unit> units = unitType(c[3]).create(1, player, true);
    final Class<?> util = Class.forName("games.strategy.triplea.delegate.AAInMoveUtil");
    final java.lang.reflect.Constructor<?> make = util.getDeclaredConstructor();
    make.setAccessible(true);
    final Object aa = make.newInstance();
    final Method initialize = util.getMethod("initialize", IDelegateBridge.class);
    initialize.setAccessible(true);
    initialize.invoke(aa, new Bridge(data.getSequence().getStep()));
    final Method where = util.getDeclaredMethod("getTerritoriesWhereAaWillFire", Route.class, Collection.class);
    where.setAccessible(true);
    final TreeSet<String> names = new TreeSet<>();
    for (final Object territory : (Collection<?>) where.invoke(aa, route, units)) {
      names.add(((Territory) territory).getName());
    }
    return "{\"fire\": " + strings(names) + "}";
  }

  /** The player wins a battle for the territory: what the engine does then (owner, capital loot, liberation). */
  private static String takeover(final Territory territory, final PlayerID player) {
    final Bridge bridge = new Bridge(data.getSequence().getStep());
    DelegateFinder.battleDelegate(data).getBattleTracker().takeOver(territory, player, bridge, null, null);
    final String owner = territory.getOwner().isNull() ? "" : territory.getOwner().getName();
    return "{\"owner\": " + string(owner) + ", \"history\": " + strings(bridge.history) + "}";
  }

  private static String techs(final PlayerID player) {
    final TreeSet<String> names = new TreeSet<>();
    for (final TechAdvance advance : TechTracker.getCurrentTechAdvances(player, data)) {
      names.add(advance.getProperty());
    }
    return "{\"techs\": " + strings(names) + "}";
  }

  private static Territory territory(final String name) {
    final Territory found = data.getMap().getTerritory(name);
    if (found == null) {
      throw new IllegalArgumentException("no territory " + name);
    }
    return found;
  }

  private static PlayerID player(final String name) {
    if (name.isEmpty()) {
      return PlayerID.NULL_PLAYERID;
    }
    final PlayerID found = data.getPlayerList().getPlayerId(name);
    if (found == null) {
      throw new IllegalArgumentException("no player " + name);
    }
    return found;
  }

  private static UnitType unitType(final String name) {
    final UnitType found = data.getUnitTypeList().getUnitType(name);
    if (found == null) {
      throw new IllegalArgumentException("no unit type " + name);
    }
    return found;
  }

  /**
   * The bridge a delegate talks to the game through: changes are performed on the game, history lines kept,
   * dice seeded; every player, display and sound channel is a stand-in that does nothing and answers
   * "no" (false, 0, null), as a player who takes no action.
   */
  private static final class Bridge implements IDelegateBridge {
    final GameStep step;
    final List<String> history = new ArrayList<>();
    final Random random = new Random(1);
    boolean stopped;

    Bridge(final GameStep step) {
      this.step = step;
    }

    @Override
    public IRemotePlayer getRemotePlayer() {
      return getRemotePlayer(getPlayerId());
    }

    @Override
    public IRemotePlayer getRemotePlayer(final PlayerID player) {
      return nothing(ITripleAPlayer.class);
    }

    @Override
    public PlayerID getPlayerId() {
      return step.getPlayerId() == null ? PlayerID.NULL_PLAYERID : step.getPlayerId();
    }

    @Override
    public String getStepName() {
      return step.getName();
    }

    @Override
    public void addChange(final Change change) {
      data.performChange(change);
    }

    @Override
    public int getRandom(final int max, final PlayerID player, final IRandomStats.DiceType type, final String annotation) {
      return random.nextInt(max);
    }

    @Override
    public int[] getRandom(final int max, final int count, final PlayerID player, final IRandomStats.DiceType type,
        final String annotation) {
      final int[] rolls = new int[count];
      for (int i = 0; i < count; i++) {
        rolls[i] = random.nextInt(max);
      }
      return rolls;
    }

    @Override
    public IDelegateHistoryWriter getHistoryWriter() {
      return new IDelegateHistoryWriter() {
        @Override
        public void startEvent(final String text) {
          history.add(text);
        }

        @Override
        public void startEvent(final String text, final Object details) {
          history.add(text);
        }

        @Override
        public void addChildToEvent(final String text) {
          history.add(text);
        }

        @Override
        public void addChildToEvent(final String text, final Object details) {
          history.add(text);
        }
      };
    }

    @Override
    public IDisplay getDisplayChannelBroadcaster() {
      return nothing(ITripleADisplay.class);
    }

    @Override
    public ISound getSoundChannelBroadcaster() {
      return nothing(ISound.class);
    }

    @Override
    public Properties getStepProperties() {
      return step.getProperties();
    }

    @Override
    public void stopGameSequence() {
      stopped = true;
    }

    @Override
    public void leaveDelegateExecution() {}

    @Override
    public void enterDelegateExecution() {}

    @Override
    public GameData getData() {
      return data;
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T nothing(final Class<T> type) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
      final Class<?> returns = method.getReturnType();
      if (method.getName().equals("toString")) {
        return "nothing " + type.getSimpleName();
      }
      if (returns == boolean.class) {
        return false;
      }
      if (returns == int.class || returns == long.class || returns == short.class || returns == byte.class) {
        return 0;
      }
      if (returns == double.class || returns == float.class) {
        return 0.0;
      }
      if (returns == char.class) {
        return '\0';
      }
      return null;
    });
  }

  // JSON strings and error descriptions as the other harness programs write them (compiled together).
  static String describe(final Throwable thrown) {
    return EnginePlayer.describe(thrown);
  }

  static String string(final String text) {
    return EngineHarness.string(text);
  }

  /** A JSON object of already-encoded values, keys in order. */
  static String object(final Map<String, String> values) {
    final StringBuilder out = new StringBuilder("{");
    for (final Map.Entry<String, String> entry : values.entrySet()) {
      out.append(out.length() > 1 ? ", " : "").append(string(entry.getKey())).append(": ").append(entry.getValue());
    }
    return out.append('}').toString();
  }

  static String strings(final Collection<String> values) {
    final StringBuilder out = new StringBuilder("[");
    for (final String value : values) {
      out.append(out.length() > 1 ? ", " : "").append(string(value));
    }
    return out.append(']').toString();
  }

  /**
   * TripleA 2.7's reading of the national objectives' conditions, run with the 2.7 headless jar (not 1.9's)
   * on the class path: {@code java -cp 2.7-jar:...:classes EnginePositions$Conditions27}, game files one a
   * line on standard input. For each file one JSON line: player -> rules attachment -> each condition named
   * in its {@code conditions} -> the player TripleA resolved it to (2.7 looks a name up across players, as
   * 1.9 does). Written with reflection and java.* only, so that it loads without the 1.9 classes that the
   * rest of this file is compiled against.
   */
  public static final class Conditions27 {
    private Conditions27() {}

    public static void main(final String[] args) throws Exception {
      final PrintStream json =
          new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8.name());
      System.setOut(System.err);
      final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      final Class<?> parser = Class.forName("games.strategy.engine.data.gameparser.GameParser");
      final Method parse = parser.getMethod("parse", java.nio.file.Path.class, boolean.class);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isEmpty()) {
          continue;
        }
        final String file = line;
        final StringBuilder out = new StringBuilder("{");
        try {
          final Object data = ((java.util.Optional<?>) parse.invoke(null, Paths.get(file), false))
              .orElseThrow(() -> new IllegalStateException("TripleA 2.7 does not parse " + file));
          for (final Object player : (Collection<?>) call(call(data, "getPlayerList"), "getPlayers")) {
            final StringBuilder attachments = new StringBuilder();
            for (final Map.Entry<?, ?> attachment : ((Map<?, ?>) call(player, "getAttachments")).entrySet()) {
              if (!attachment.getValue().getClass().getSimpleName().equals("RulesAttachment")) {
                continue;
              }
              final StringBuilder conditions = new StringBuilder();
              for (final Object condition : (Collection<?>) call(attachment.getValue(), "getConditions")) {
                conditions.append(conditions.length() > 0 ? ", " : "").append(quote(call(condition, "getName")))
                    .append(": ").append(quote(call(call(condition, "getAttachedTo"), "getName")));
              }
              attachments.append(attachments.length() > 0 ? ", " : "").append(quote(attachment.getKey())).append(": {")
                  .append(conditions).append('}');
            }
            out.append(out.length() > 1 ? ", " : "").append(quote(call(player, "getName"))).append(": {").append(attachments)
                .append('}');
          }
          out.append('}');
        } catch (final Throwable e) {
          Throwable root = e;
          while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
          }
          out.setLength(0);
          out.append("{\"error\": ").append(quote(root.getClass().getName() + ": " + root.getMessage())).append('}');
        }
        json.println(out);
      }
      json.flush();
      System.exit(0);
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
}
