// The problem packed into typed arrays: checked once, indexed by canonically sorted keys (so the same
// input in any order packs alike), and cheap to post to the solver's worker (typed arrays copy as memory).

/** The room of an official on a day when the league has no daily cap. */
export const NO_CAP = 1 << 30

/**
 * @typedef {object} PackedProblem
 * @property {string[]} slotKeys sorted
 * @property {Int32Array} slotGame the game's index, games numbered by key
 * @property {Float64Array} slotStart
 * @property {Float64Array} slotEnd
 * @property {Float64Array} slotReach end plus the travel buffer: two slots at different places conflict iff
 *   each starts before the other's reach
 * @property {Int32Array} slotSite the place's index, places numbered by key; -1 when unknown (never the
 *   same place as another slot): two slots at one place conflict only when they overlap
 * @property {Uint8Array} slotLead 1 for a game's lead position: among plans filling the most, the most leads
 * @property {Int32Array} slotDay index into days
 * @property {string[]} days sorted
 * @property {string[]} officialKeys sorted
 * @property {Int32Array} held games held in the window
 * @property {Int32Array} room new positions an official may still take per day, [official * days + day]
 * @property {Int32Array} pairSlot in input order
 * @property {Int32Array} pairOfficial
 * @property {Int32Array} pairMargin
 * @property {Float64Array} pairDistance NaN when unknown
 */

/**
 * @param {string} what
 * @returns {never}
 */
function invalid(what) {
  throw new RangeError(`assignor: ${what}`)
}

/**
 * @param {readonly string[]} keys
 * @param {string} what
 * @returns {{ sorted: string[], index: Map<string, number> }}
 */
function indexKeys(keys, what) {
  const sorted = [...new Set(keys)].sort()
  if (sorted.length !== keys.length) invalid(`duplicate ${what} key`)
  return { sorted, index: new Map(sorted.map((key, i) => [key, i])) }
}

/**
 * @param {unknown} n
 * @returns {boolean}
 */
const isCount = (n) => Number.isInteger(n) && /** @type {number} */ (n) >= 0

/**
 * @param {import('./types.js').AssignmentProblem} problem
 * @param {Map<string, number>} dayIndex
 */
function packSlots(problem, dayIndex) {
  const { slots } = problem
  const { sorted, index } = indexKeys(
    slots.map((s) => s.key),
    'slot',
  )
  const games = indexKeys([...new Set(slots.map((s) => s.gameKey))], 'game').index
  const sites = indexKeys(
    [...new Set(slots.flatMap((s) => (typeof s.site === 'string' ? [s.site] : [])))],
    'site',
  ).index
  const bufferMs = problem.travelBufferMinutes * 60_000
  const n = sorted.length
  const packed = {
    slotKeys: sorted,
    slotGame: new Int32Array(n),
    slotStart: new Float64Array(n),
    slotEnd: new Float64Array(n),
    slotReach: new Float64Array(n),
    slotSite: new Int32Array(n),
    slotLead: new Uint8Array(n),
    slotDay: new Int32Array(n),
  }
  /** @type {Map<number, import('./types.js').AssignorSlot>} */
  const firstOfGame = new Map()
  /** @type {Set<number>} */
  const leads = new Set()
  for (const slot of slots) {
    const i = /** @type {number} */ (index.get(slot.key))
    const game = /** @type {number} */ (games.get(slot.gameKey))
    if (!Number.isFinite(slot.startsAt) || !(slot.endsAt > slot.startsAt))
      invalid(`slot ${slot.key} interval`)
    const first = firstOfGame.get(game) ?? slot
    const samePlace = (first.site ?? null) === (slot.site ?? null)
    if (first.startsAt !== slot.startsAt || first.endsAt !== slot.endsAt || !samePlace)
      invalid(`game ${slot.gameKey} times`)
    if (slot.lead === true) {
      if (leads.has(game)) invalid(`game ${slot.gameKey} leads`)
      leads.add(game)
    }
    firstOfGame.set(game, first)
    packed.slotGame[i] = game
    packed.slotStart[i] = slot.startsAt
    packed.slotEnd[i] = slot.endsAt
    packed.slotReach[i] = slot.endsAt + bufferMs
    packed.slotSite[i] = typeof slot.site === 'string' ? /** @type {number} */ (sites.get(slot.site)) : -1
    packed.slotLead[i] = slot.lead === true ? 1 : 0
    packed.slotDay[i] = /** @type {number} */ (dayIndex.get(slot.day))
  }
  return { ...packed, index }
}

/**
 * @param {import('./types.js').AssignmentProblem} problem
 * @param {string[]} days
 */
function packOfficials(problem, days) {
  const { officials, maxGamesPerDay } = problem
  const { sorted, index } = indexKeys(
    officials.map((o) => o.key),
    'official',
  )
  const held = new Int32Array(sorted.length)
  const room = new Int32Array(sorted.length * days.length).fill(NO_CAP)
  for (const official of officials) {
    const i = /** @type {number} */ (index.get(official.key))
    if (!isCount(official.gamesHeld)) invalid(`official ${official.key} gamesHeld`)
    held[i] = official.gamesHeld
    if (maxGamesPerDay === null) continue
    for (const [d, day] of days.entries()) {
      const heldThatDay = official.gamesHeldByDay?.[day] ?? 0
      if (!isCount(heldThatDay)) invalid(`official ${official.key} gamesHeldByDay`)
      room[i * days.length + d] = Math.max(0, maxGamesPerDay - heldThatDay)
    }
  }
  return { officialKeys: sorted, held, room, index }
}

/**
 * Checks and packs the slots and officials; the pairs come after, by `packPairs`, in as many chunks as
 * the caller likes (a weekend has some 150,000 pairs: one chunk of them would hold the event loop).
 * Pairs keep their input order here; `analyse` sorts them.
 * @param {import('./types.js').AssignmentProblem} problem
 * @returns {PackedProblem & { slotIndex: Map<string, number>, officialIndex: Map<string, number> }}
 */
export function packFrame(problem) {
  const { travelBufferMinutes, maxGamesPerDay } = problem
  if (!(Number.isFinite(travelBufferMinutes) && travelBufferMinutes >= 0)) invalid('travelBufferMinutes')
  if (maxGamesPerDay !== null && !(isCount(maxGamesPerDay) && maxGamesPerDay > 0)) invalid('maxGamesPerDay')
  const days = [...new Set(problem.slots.map((s) => s.day))].sort()
  const dayIndex = new Map(days.map((day, i) => [day, i]))
  const { index: slotIndex, ...slots } = packSlots(problem, dayIndex)
  const { index: officialIndex, ...officials } = packOfficials(problem, days)
  const n = problem.pairs.length
  return {
    ...slots,
    days,
    ...officials,
    pairSlot: new Int32Array(n),
    pairOfficial: new Int32Array(n),
    pairMargin: new Int32Array(n),
    pairDistance: new Float64Array(n),
    slotIndex,
    officialIndex,
  }
}

/**
 * Packs pairs [from, to) into a frame.
 * @param {import('./types.js').AssignmentProblem} problem
 * @param {ReturnType<typeof packFrame>} frame
 * @param {number} from
 * @param {number} to
 */
export function packPairs(problem, frame, from, to) {
  for (let p = from; p < to; p++) {
    const pair = /** @type {import('./types.js').EligiblePair} */ (problem.pairs[p])
    const slot = frame.slotIndex.get(pair.slotKey)
    const official = frame.officialIndex.get(pair.officialKey)
    const which = `pair ${pair.slotKey}/${pair.officialKey}`
    if (slot === undefined || official === undefined) invalid(`${which} names an unknown key`)
    if (!isCount(pair.levelMargin)) invalid(`${which} levelMargin`)
    const km = pair.distanceKm
    if (km !== null && !(Number.isFinite(km) && km >= 0)) invalid(`${which} distanceKm`)
    frame.pairSlot[p] = slot
    frame.pairOfficial[p] = official
    frame.pairMargin[p] = pair.levelMargin
    frame.pairDistance[p] = km ?? Number.NaN
  }
}

/**
 * The frame without its key indexes: what the worker receives.
 * @param {ReturnType<typeof packFrame>} frame
 * @returns {PackedProblem}
 */
export function packed(frame) {
  const { slotIndex: _slots, officialIndex: _officials, ...rest } = frame
  return rest
}

/**
 * Checks and packs a problem in one go.
 * @param {import('./types.js').AssignmentProblem} problem
 * @returns {PackedProblem}
 */
export function packProblem(problem) {
  const frame = packFrame(problem)
  packPairs(problem, frame, 0, problem.pairs.length)
  return packed(frame)
}

/**
 * Whether one official can hold slots s and t together: not two positions of one game; at one place,
 * games that do not overlap; at different (or unknown) places, games the travel buffer apart.
 * @param {PackedProblem} P
 * @param {number} s
 * @param {number} t
 * @returns {boolean}
 */
export function conflicting(P, s, t) {
  if (P.slotGame[s] === P.slotGame[t]) return true
  const site = P.slotSite[s]
  if (site >= 0 && site === P.slotSite[t])
    return P.slotStart[s] < P.slotEnd[t] && P.slotStart[t] < P.slotEnd[s]
  return P.slotStart[s] < P.slotReach[t] && P.slotStart[t] < P.slotReach[s]
}
