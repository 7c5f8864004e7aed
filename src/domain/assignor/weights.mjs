// The secondary objective, in integer units of 100 m of travel: an integral objective lets the solver
// stop at an absolute gap below one unit and still prove the optimum.

/** Cost units per km of travel: distances round to 100 m, finer than any home point is known. */
export const COST_UNITS_PER_KM = 10

/**
 * One level above the position's minimum is worth a 10 km longer trip: enough that a better-qualified
 * official wins between neighbours, not enough to send them across the region for an easy game.
 */
export const LEVEL_MARGIN_REWARD = 10 * COST_UNITS_PER_KM

/**
 * The k-th game of an official (counting the ones they already hold) costs (k − 1) × 15 km: a convex
 * penalty, so a third game for one official loses to a first game for another unless the first is
 * 30 km further. Its increments are what make the spread even, not a cap: the daily cap is the cap.
 */
export const SPREAD_STEP = 15 * COST_UNITS_PER_KM

/**
 * An unknown distance counts as a typical 25 km trip: it neither beats a known short trip nor loses to
 * every known one, so officials without a home point are neither favoured nor shut out.
 */
export const UNKNOWN_DISTANCE_KM = 25

/**
 * The cost of giving one position to one official, before the spread term.
 * @param {number} levelMargin
 * @param {number} distanceKm NaN when unknown
 * @returns {number}
 */
export function pairCost(levelMargin, distanceKm) {
  const km = Number.isNaN(distanceKm) ? UNKNOWN_DISTANCE_KM : distanceKm
  return Math.round(km * COST_UNITS_PER_KM) - LEVEL_MARGIN_REWARD * levelMargin
}

/**
 * What one more game costs an official who has `gamesBefore` in the window already.
 * @param {number} gamesBefore
 * @returns {number}
 */
export function spreadIncrement(gamesBefore) {
  return SPREAD_STEP * gamesBefore
}
