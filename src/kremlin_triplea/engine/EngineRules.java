import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.IAttachment;
import games.strategy.triplea.attachments.CanalAttachment;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.MoveValidator;
import games.strategy.triplea.delegate.TechAdvance;
import games.strategy.triplea.delegate.TechTracker;
import games.strategy.util.Tuple;

/**
 * The rules a game file gives the engine, as the engine understands them: canals (and whether a unit
 * of each power may cross each one, asked of the engine's own move validator), each power's
 * technologies, research price, production prices and unit values with its technologies, its
 * national objectives and conditions, and its triggers. One JSON object, keys sorted.
 */
final class EngineRules {
  private EngineRules() {}

  static String rulesJson(final GameData data) {
    final Map<String, String> out = new TreeMap<>();
    out.put("canals", canals(data));
    out.put("crossings", crossings(data));
    final Map<String, String> players = new TreeMap<>();
    for (final PlayerID player : data.getPlayerList().getPlayers()) {
      players.put(player.getName(), player(player, data));
    }
    out.put("players", object(players));
    return object(out);
  }

  /** Every canal attachment: its sea zone, name, land territories and the units it lets through. */
  private static String canals(final GameData data) {
    final Map<String, String> canals = new TreeMap<>();
    for (final Territory zone : data.getMap().getTerritories()) {
      for (final CanalAttachment canal : CanalAttachment.get(zone)) {
        final Map<String, String> fields = new TreeMap<>();
        fields.put("canal", EngineHarness.string(canal.getCanalName()));
        fields.put("sea_zone", EngineHarness.string(zone.getName()));
        fields.put("land", names(canal.getLandTerritories()));
        fields.put("excluded", names(canal.getExcludedUnits()));
        canals.put(zone.getName() + "|" + canal.getName(), object(fields));
      }
    }
    return object(canals);
  }

  /**
   * For the two sea zones of every canal name: which unit types of each power may sail from one to the
   * other at the start of the game, by MoveValidator.validateCanal on both zones of the route.
   */
  private static String crossings(final GameData data) {
    final Map<String, List<Territory>> zonesByCanal = new TreeMap<>();
    for (final Territory zone : data.getMap().getTerritories()) {
      for (final CanalAttachment canal : CanalAttachment.get(zone)) {
        zonesByCanal.computeIfAbsent(canal.getCanalName(), k -> new ArrayList<>()).add(zone);
      }
    }
    final Map<String, String> crossings = new TreeMap<>();
    for (final List<Territory> zones : zonesByCanal.values()) {
      if (zones.size() != 2) {
        continue;  // the engine refuses such a canal when a ship meets it; the canals list shows it
      }
      zones.sort((a, b) -> a.getName().compareTo(b.getName()));
      final Territory from = zones.get(0);
      final Territory to = zones.get(1);
      final String key = from.getName() + "|" + to.getName();
      if (crossings.containsKey(key)) {
        continue;
      }
      final Route route = new Route(from, to);
      final Map<String, String> byPlayer = new TreeMap<>();
      for (final PlayerID player : data.getPlayerList().getPlayers()) {
        final Map<String, String> byType = new TreeMap<>();
        for (final UnitType type : data.getUnitTypeList().getAllUnitTypes()) {
          final UnitAttachment ua = UnitAttachment.get(type);
          if (!ua.getIsSea() && !ua.getIsAir()) {
            continue;
          }
          final Collection<Unit> units = type.create(1, player, true);
          final boolean blocked = MoveValidator.validateCanal(from, route, units, player, data).isPresent()
              || MoveValidator.validateCanal(to, route, units, player, data).isPresent();
          byType.put(type.getName(), String.valueOf(!blocked));
        }
        byPlayer.put(player.getName(), object(byType));
      }
      crossings.put(key, object(byPlayer));
    }
    return object(crossings);
  }

  private static String player(final PlayerID player, final GameData data) {
    final Map<String, String> fields = new TreeMap<>();
    final TreeSet<String> techs = new TreeSet<>();
    for (final TechAdvance advance : TechTracker.getCurrentTechAdvances(player, data)) {
      techs.add(advance.getName());
    }
    fields.put("techs", strings(techs));
    fields.put("tech_cost", String.valueOf(TechTracker.getTechCost(player)));
    // What the power may research, category by category, in the engine's order.
    final Map<String, String> research = new TreeMap<>();
    for (final games.strategy.engine.data.TechnologyFrontier category : player.getTechnologyFrontierList().getFrontiers()) {
      final List<String> names = new ArrayList<>();
      for (final TechAdvance advance : category.getTechs()) {
        names.add(advance.getName());
      }
      research.put(category.getName(), strings(names));
    }
    fields.put("research", object(research));
    final Map<String, String> prices = new TreeMap<>();
    if (player.getProductionFrontier() != null) {
      for (final ProductionRule rule : player.getProductionFrontier().getRules()) {
        for (final NamedAttachable result : rule.getResults().keySet()) {
          prices.put(result.getName(), String.valueOf(rule.getCosts().totalValues()));
        }
      }
      fields.put("frontier", EngineHarness.string(player.getProductionFrontier().getName()));
    }
    fields.put("prices", object(prices));
    final Map<String, String> units = new TreeMap<>();
    for (final UnitType type : data.getUnitTypeList().getAllUnitTypes()) {
      final UnitAttachment ua = UnitAttachment.get(type);
      units.put(type.getName(), "{\"attack\": " + ua.getAttack(player) + ", \"blitz\": " + ua.getCanBlitz(player)
          + ", \"defense\": " + ua.getDefense(player) + ", \"movement\": " + ua.getMovement(player) + "}");
    }
    fields.put("units", object(units));
    final Map<String, String> objectives = new TreeMap<>();
    final Map<String, String> triggers = new TreeMap<>();
    for (final Map.Entry<String, IAttachment> entry : player.getAttachments().entrySet()) {
      if (entry.getValue() instanceof RulesAttachment) {
        objectives.put(entry.getKey(), condition((RulesAttachment) entry.getValue()));
      } else if (entry.getValue() instanceof TriggerAttachment) {
        triggers.put(entry.getKey(), trigger((TriggerAttachment) entry.getValue()));
      }
    }
    fields.put("conditions", object(objectives));
    fields.put("triggers", object(triggers));
    return object(fields);
  }

  /** A rules attachment: objective value, the conditions it requires, its players and territory lists. */
  private static String condition(final RulesAttachment rules) {
    final Map<String, String> fields = new TreeMap<>();
    fields.put("objective_value", String.valueOf(rules.getObjectiveValue()));
    final List<String> conditions = new ArrayList<>();
    for (final RulesAttachment condition : rules.getConditions()) {
      conditions.add(condition.getName());
    }
    fields.put("conditions", strings(conditions));
    fields.put("players", names(rules.getPlayers()));
    fields.put("allied_ownership", strings(list(rules.getAlliedOwnershipTerritories())));
    fields.put("allied_exclusion", strings(list(rules.getAlliedExclusionTerritories())));
    fields.put("direct_exclusion", strings(list(rules.getDirectExclusionTerritories())));
    return object(fields);
  }

  private static String trigger(final TriggerAttachment trigger) {
    final Map<String, String> fields = new TreeMap<>();
    fields.put("uses", String.valueOf(trigger.getUses()));
    final List<String> when = new ArrayList<>();
    for (final Tuple<String, String> moment : trigger.getWhen()) {
      when.add(moment.getFirst() + ":" + moment.getSecond());
    }
    fields.put("when", strings(when));
    fields.put("resource", EngineHarness.string(trigger.getResource()));
    fields.put("resource_count", String.valueOf(trigger.getResourceCount()));
    fields.put("players", names(trigger.getPlayers()));
    final List<String> techs = new ArrayList<>();
    for (final TechAdvance advance : trigger.getTech()) {
      techs.add(advance.getName());
    }
    fields.put("techs", strings(techs));
    final List<String> conditions = new ArrayList<>();
    for (final RulesAttachment condition : trigger.getConditions()) {
      conditions.add(condition.getName());
    }
    fields.put("conditions", strings(conditions));
    return object(fields);
  }

  private static List<String> list(final String[] values) {
    final List<String> out = new ArrayList<>();
    if (values != null) {
      Collections.addAll(out, values);
    }
    return out;
  }

  private static String names(final Collection<? extends games.strategy.engine.data.DefaultNamed> named) {
    final TreeSet<String> sorted = new TreeSet<>();
    if (named != null) {
      for (final games.strategy.engine.data.DefaultNamed item : named) {
        sorted.add(item.getName());
      }
    }
    return strings(sorted);
  }

  private static String strings(final Collection<String> values) {
    final StringBuilder out = new StringBuilder("[");
    for (final String value : values) {
      out.append(out.length() > 1 ? ", " : "").append(EngineHarness.string(value));
    }
    return out.append(']').toString();
  }

  private static String object(final Map<String, String> sorted) {
    final StringBuilder out = new StringBuilder();
    EngineHarness.object(out, sorted, json -> json);
    return out.toString();
  }
}
