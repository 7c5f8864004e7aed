// What each template of views/ is handed, by its name: `sendPage(request, reply, 'organize-games', …, data)`
// type-checks `data` against this map. Every template also gets the PageContext (pages.ts): the CSRF token,
// the person, the formatters and `path`, the app's address builders.
import type { Refusal } from '../domain/availability/conflicts.js'
import type { Earning, EarningTotal } from '../domain/pages/earnings.js'
import type { BoardPosition } from '../domain/pages/organize-assign.js'
import type { GameDesk } from '../domain/pages/organize-game.js'
import type { DenialPreview } from '../domain/pages/organize-officials.js'
import type {
  CompletionBlocker,
  GameQuery,
  LeagueGame,
  PositionLine,
} from '../domain/pages/organize-games.js'
import type { LedgerLine, LedgerTotal, OfficialTotal } from '../domain/pages/organize-payouts.js'
import type { PersonMembership } from '../domain/pages/leagues.js'
import type { OpenGame } from '../domain/pages/open-games.js'
import type { LeagueOverview, OrganizedLeague } from '../domain/pages/organize.js'
import type { SimulatedOutcome } from '../domain/core/payment-processor.js'
import type { BatchPreview } from '../domain/payments/season-close.js'
import type { HeldGame, Schedule } from '../domain/pages/schedule.js'
import type { NotificationKindName } from '../schemas/notifications.js'
import type { AssignmentPlan } from '../schemas/plans.js'
import type { Official } from '../schemas/officials.js'
import type { changeMark } from './format.js'

type GameStatus = LeagueGame['status']
type PaymentStatus = LedgerLine['status']

/** Items grouped under the day they start on (format.ts `byDay`). */
type Days<T> = readonly { readonly day: string; readonly items: readonly T[] }[]

/** The tabs above every page of one league (`_league-tabs.eta`). */
interface LeagueTabs {
  readonly league: OrganizedLeague
  readonly tab: 'games' | 'assign' | 'officials' | 'payouts'
}

/** Open games' filters as the address carries them: anything malformed reads as absent. */
export interface OpenGamesFilters {
  readonly league?: string
  readonly from?: string
  readonly to?: string
  readonly sport?: string
  readonly place?: string
  readonly all?: '1'
}

/** The games list's filters and page, carried through a confirmation so the list comes back as it was. */
interface CarriedList {
  readonly listFields: Readonly<Record<string, string>>
  readonly backHref: string
}

export interface Views {
  message: { heading: string; text: string }
  'sign-in': { email: string; error?: string | undefined; mailEnabled: boolean }
  'sign-in-sent': { email: string; limited: boolean; mailEnabled: boolean }
  'sign-in-link': { token: string | undefined }
  schedule: Schedule & {
    page: number
    status: (game: HeldGame) => string | undefined
    changeMark: typeof changeMark
  }
  'open-games': {
    days: Days<OpenGame>
    more: boolean
    page: number
    filters: OpenGamesFilters
    /** The leagues the person officiates, for the league filter. */
    leagues: readonly { id: string; name: string }[]
    /** Why a game shown under "Show games I can't take" cannot be taken, by its rule. */
    reasons: Readonly<Record<Refusal, string>>
  }
  withdraw: { game: HeldGame }
  earnings: { payments: readonly Earning[]; totals: readonly EarningTotal[] }
  leagues: { memberships: readonly PersonMembership[] }
  profile: {
    timeZones: readonly string[]
    /** Their home point, for the assignor's distance to games; null until set. */
    home: { latitude: number; longitude: number } | null
    preferences: readonly { kind: NotificationKindName; enabled: boolean }[]
    words: Readonly<Record<NotificationKindName, string>>
    help: Readonly<Record<NotificationKindName, string>>
    /** The leagues the person joined: the only ones that see their home point and availability. */
    joinedLeagues: readonly string[]
  }
  /** `all`: the Invited mail's "Not you? Stop all mail" (every mail, until the owner signs in). */
  unsubscribe: { token: string; email: string; word: string; all: boolean; done: boolean }
  availability: {
    blackouts: readonly { id: string; label: string }[]
    weekly: readonly { id: string; label: string }[]
    calendars: readonly { id: string; url: string; status: string }[]
    days: readonly { value: number; name: string }[]
    /** The leagues the person joined: the only ones that see any of this. */
    joinedLeagues: readonly string[]
  }
  calendar: { feed?: { createdAt: string } | undefined; feedUrl?: string }
  organize: { leagues: readonly LeagueOverview[] }
  'organize-games': LeagueTabs & {
    days: Days<LeagueGame>
    query: GameQuery & { when: 'upcoming' | 'past' | 'all'; page: number }
    /** The status filter as chosen: a status, `needs_completion`, or none. */
    filter: string
    /** The filters and page, carried through Complete selected so the list comes back as it was. */
    listFields: Readonly<Record<string, string>>
    /** What Complete selected did, read back from its redirect. */
    outcome: { completed: number; refused: readonly { name: string; reason: string }[] } | undefined
    /** "Select all" was asked for: every game on the page that can be completed comes checked. */
    selectAll: boolean
    selectAllHref: string
    clearHref: string
    statuses: readonly GameStatus[]
    more: boolean
    pageHref: (page: number) => string
  }
  'organize-complete': {
    league: OrganizedLeague
    game: LeagueGame
    blocker: CompletionBlocker | undefined
  } & CarriedList
  'organize-game': GameDesk & {
    /** A conflict the organizer may override: the refused choice, offered again as "Assign anyway". */
    override: { userId: string; name: string; positionId: string } | undefined
    levels: readonly number[]
  }
  'organize-cancel': GameDesk
  'organize-no-show': {
    league: OrganizedLeague
    game: LeagueGame
    position: PositionLine
    effect: 'none' | 'kept' | 'removed'
  } & CarriedList
  'organize-officials': LeagueTabs & { officials: readonly Official[]; levels: readonly number[] }
  'organize-deny': DenialPreview
  'organize-assign': LeagueTabs & {
    positions: readonly BoardPosition[]
    more: boolean
    reasons: Readonly<Record<string, string>>
    /** Fill automatically's default window: the coming weekend's local days. */
    weekend: { from: string; to: string }
  }
  'organize-plan': LeagueTabs & {
    plan: AssignmentPlan
    reasons: Readonly<Record<string, string>>
  }
  'organize-payouts': LeagueTabs & {
    payments: readonly LedgerLine[]
    totals: readonly LedgerTotal[]
    more: boolean
    status: PaymentStatus | undefined
    statuses: readonly PaymentStatus[]
    page: number
    pageHref: (page: number) => string
    csvHref: string
    selectable: boolean
    /** Charge selected applies: a platform payment on this page can be charged. */
    chargeable: boolean
    perOfficial: readonly OfficialTotal[]
    /** "Select all" was asked for: every selectable payment on the page comes checked. */
    selectAll: boolean
    selectAllHref: string
    clearHref: string
    /** What Charge selected did, read back from its redirect. */
    charged: { paid: number; failed: number; requiresCard: number; refused: number } | undefined
  }
  'organize-charge': { league: OrganizedLeague; payment: LedgerLine; outcomes: readonly SimulatedOutcome[] }
  /** A bulk action said before it acts (Complete selected, Mark selected paid, Charge selected). */
  'organize-confirm-batch': {
    league: OrganizedLeague
    heading: string
    preview: BatchPreview
    /** What the selection's items are called: "game", "games". */
    noun: { one: string; many: string }
    /** The action's past participle, for what it cannot do: "completed", "charged". */
    done: string
    /** What acting does, in a sentence. */
    effect: string
    confirmLabel: string
    action: string
    idField: string
  } & CarriedList
}

export type ViewName = keyof Views
