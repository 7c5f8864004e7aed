// The assignor's input and output: what integration hands the solver after it has applied every per-pair
// rule, and the plan it gets back. Keys are the caller's ids; times are milliseconds since the epoch.

/** One open position to fill. All positions of one game share its interval. */
export interface AssignorSlot {
  /** The position id. */
  readonly key: string
  /** The game id: one official never takes two positions of one game. */
  readonly gameKey: string
  readonly startsAt: number
  readonly endsAt: number
  /** The league-local day (`YYYY-MM-DD`) the daily cap counts it in. */
  readonly day: string
  /**
   * The game's lead (its Referee): among plans that fill the most positions, the plan fills the most
   * leads. At most one slot of a game. Absent: not a lead.
   */
  readonly lead?: boolean
  /**
   * Where the game is played (its venue, else its location): between two games at one place the travel
   * buffer does not apply, only that they do not overlap. Null or absent: unknown, another place than
   * any. All positions of one game share it.
   */
  readonly site?: string | null
}

export interface AssignorOfficial {
  /** The user id. */
  readonly key: string
  /** Games they already hold in the planning window: where the spread term starts counting. */
  readonly gamesHeld: number
  /** Games they already hold per league-local day: the daily cap leaves them the rest. */
  readonly gamesHeldByDay?: Readonly<Record<string, number>>
}

/** A (position, official) pair no per-pair rule forbids, with what the preference weighs. */
export interface EligiblePair {
  readonly slotKey: string
  readonly officialKey: string
  /** The official's level minus the position's minLevel (0 when it has none): an integer ≥ 0. */
  readonly levelMargin: number
  /** From the official's home point to the game; null when either is unknown. */
  readonly distanceKm: number | null
}

export interface AssignmentProblem {
  readonly slots: readonly AssignorSlot[]
  readonly officials: readonly AssignorOfficial[]
  readonly pairs: readonly EligiblePair[]
  /** Two games at different places conflict when they come within this many minutes of each other. */
  readonly travelBufferMinutes: number
  /** At most this many positions per official and day, counting what they hold; null: no cap. */
  readonly maxGamesPerDay: number | null
}

/** What decided a proposal, for the `why` integration writes. */
export interface ProposalTerms {
  readonly levelMargin: number
  readonly distanceKm: number | null
  /** Games the official held in the window before this plan. */
  readonly gamesHeld: number
  /** Positions this plan gives the official, this one included. */
  readonly gamesPlanned: number
  /** Officials eligible for this position (after the daily cap left them room). */
  readonly eligibleOfficials: number
  /** No other official could take it: the choice was forced. */
  readonly onlyEligible: boolean
}

export interface Proposal {
  readonly slotKey: string
  readonly officialKey: string
  readonly terms: ProposalTerms
}

export interface PlanStats {
  readonly positions: number
  readonly filled: number
  /** Slots that are their game's lead, and how many of them the plan fills. */
  readonly leads: number
  readonly leadsFilled: number
  /** The count is the proven maximum and the preferences are proven best among plans that reach it. */
  readonly optimal: boolean
  readonly solveMs: number
}

export interface Plan {
  /** By slot key. */
  readonly proposals: readonly Proposal[]
  /** Slot keys left open, sorted; integration explains them from its own pruning. */
  readonly unfilled: readonly string[]
  readonly stats: PlanStats
}

export interface PlanOptions {
  /** Milliseconds the plan may take; past them the greedy plan answers with `optimal: false`. */
  readonly deadlineMs: number
}
