// Every address of the app, defined once: a route module registers `pattern` (relative to the plugin's
// prefix), and redirects and templates (as `it.path`) build links with `href`, whose parameters are typed
// from the pattern. Nothing else in src/web writes an app path by hand.
export const APP_PREFIX = '/app'

/** `':leagueId' | ':userId'` → `'leagueId' | 'userId'` for a pattern like `/leagues/:leagueId/x/:userId`. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never

/** Query parameters; undefined ones are left out, the others keep their order. */
type Query = Readonly<Record<string, string | number | undefined>>

type Href<P extends string> = [ParamNames<P>] extends [never]
  ? (query?: Query) => string
  : (params: Readonly<Record<ParamNames<P>, string>>, query?: Query) => string

export interface AppPath<P extends string> {
  /** The route as Fastify registers it under the prefix. */
  readonly pattern: P
  /** The whole address, prefix included. */
  readonly href: Href<P>
}

function appPath<P extends string>(pattern: P): AppPath<P> {
  const href = (...args: [Query?] | [Readonly<Record<string, string>>, Query?]) => {
    const hasParams = pattern.includes(':')
    const params = (hasParams ? args[0] : {}) as Readonly<Record<string, string>>
    const query = (hasParams ? args[1] : args[0]) as Query | undefined
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '')
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) search.set(name, String(value))
    }
    const text = search.toString()
    return `${APP_PREFIX}${path}${text === '' ? '' : `?${text}`}`
  }
  return { pattern, href: href as Href<P> }
}

export const paths = {
  home: appPath('/'),
  signIn: appPath('/sign-in'),
  signInLink: appPath('/sign-in/link'),
  signOut: appPath('/sign-out'),
  signOutEverywhere: appPath('/sign-out/everywhere'),
  stylesheet: appPath('/static/:file'),
  openGames: appPath('/open'),
  claim: appPath('/claim'),
  withdrawal: appPath('/withdraw/:positionId'),
  withdraw: appPath('/withdraw'),
  earnings: appPath('/earnings'),
  leagues: appPath('/leagues'),
  joinLeague: appPath('/leagues/:leagueId/join'),
  leaveLeague: appPath('/leagues/:leagueId/leave'),
  profile: appPath('/profile'),
  emailSettings: appPath('/profile/email'),
  homePoint: appPath('/profile/home'),
  unsubscribe: appPath('/unsubscribe'),
  calendar: appPath('/calendar'),
  calendarFeed: appPath('/calendar.ics'),
  availability: appPath('/availability'),
  addBlackout: appPath('/availability/blackouts'),
  addWeekly: appPath('/availability/weekly'),
  addBusyCalendar: appPath('/availability/calendars'),
  removeAvailability: appPath('/availability/remove'),
  organize: appPath('/organize'),
  league: appPath('/organize/leagues/:leagueId'),
  completeSelected: appPath('/organize/leagues/:leagueId/complete-selected'),
  leagueAssign: appPath('/organize/leagues/:leagueId/assign'),
  fillAutomatically: appPath('/organize/leagues/:leagueId/plans'),
  plan: appPath('/organize/plans/:planId'),
  publishPlan: appPath('/organize/plans/:planId/publish'),
  removeFromPlan: appPath('/organize/plans/:planId/remove'),
  leagueOfficials: appPath('/organize/leagues/:leagueId/officials'),
  officialLevel: appPath('/organize/leagues/:leagueId/officials/:userId/level'),
  approveOfficial: appPath('/organize/leagues/:leagueId/officials/:userId/approve'),
  denyOfficial: appPath('/organize/leagues/:leagueId/officials/:userId/deny'),
  payouts: appPath('/organize/leagues/:leagueId/payouts'),
  payoutsCsv: appPath('/organize/leagues/:leagueId/payouts.csv'),
  markSelectedPaid: appPath('/organize/leagues/:leagueId/payouts/mark-paid'),
  chargeSelected: appPath('/organize/leagues/:leagueId/payouts/charge'),
  organizeGame: appPath('/organize/games/:gameId'),
  assignOfficial: appPath('/organize/games/:gameId/assign'),
  editGame: appPath('/organize/games/:gameId/edit'),
  cancelGame: appPath('/organize/games/:gameId/cancel'),
  addPosition: appPath('/organize/games/:gameId/positions'),
  unassignPosition: appPath('/organize/games/:gameId/positions/:positionId/unassign'),
  removePosition: appPath('/organize/games/:gameId/positions/:positionId/remove'),
  completeGame: appPath('/organize/games/:gameId/complete'),
  noShow: appPath('/organize/positions/:positionId/no-show'),
  markPaid: appPath('/organize/payments/:paymentId/mark-paid'),
  charge: appPath('/organize/payments/:paymentId/charge'),
} as const

export type Paths = typeof paths
