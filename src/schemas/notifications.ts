// The notifications' words and the snapshot each one carries from the change that caused it to the mail.
// The kinds, their recipients and their subject words are the contract (DESIGN.md, "Notifications").
export const NOTIFICATION_KINDS = [
  'assigned',
  'changed',
  'cancelled',
  'unassigned',
  'reminder',
  'turnback',
  'paid',
  'invited',
] as const

export type NotificationKindName = (typeof NOTIFICATION_KINDS)[number]

/** The word a subject starts with (before the colon), which also labels the kind on Profile. */
export const NOTIFICATION_WORD: Readonly<Record<NotificationKindName, string>> = {
  assigned: 'Assigned',
  changed: 'Changed',
  cancelled: 'Cancelled',
  unassigned: 'Unassigned',
  reminder: 'Reminder',
  turnback: 'Turnback',
  paid: 'Paid',
  invited: 'Invited',
}

/** What Profile says each checkbox is for. */
export const NOTIFICATION_HELP: Readonly<Record<NotificationKindName, string>> = {
  assigned: 'someone else gives you a game',
  changed: 'the time, length or place of a game you hold changes',
  cancelled: 'a game you hold is cancelled',
  unassigned: 'you are taken off a game',
  reminder: 'a game you hold is coming up',
  turnback: 'an official gives back a game of a league you organize',
  paid: 'you are paid for a game',
  invited: 'a league adds you before you joined it (sent before its first email to you)',
}

/** What a `changed` mail says moved: the start, the length, the place. */
type GameChange = 'time' | 'length' | 'place'

/**
 * A notification's content, as its change left things (JSON in `notifications.payload`). Its game, position
 * and league are the row's own columns, not repeated here.
 */
export interface NotificationPayload {
  readonly label: string
  readonly sport: string
  readonly startsAt: string
  /** The game's length (its own or the league's); absent in mails queued before lengths were sent. */
  readonly durationMinutes?: number
  readonly location: string
  readonly leagueName: string
  /** The league's time zone, used when the recipient has not chosen one. */
  readonly leagueTimeZone: string
  /** `changed`: what it was, and which of time, length and place moved. */
  readonly before?: {
    readonly startsAt: string
    readonly location: string
    readonly durationMinutes?: number
  }
  readonly changes?: readonly GameChange[]
  /** `turnback`: who gave the game back. */
  readonly official?: { readonly name: string; readonly email: string }
  /** `paid`: how much. */
  readonly amount?: { readonly cents: number; readonly currency: string }
  /** `invited`: who added them (the league's organizer, through which partner). */
  readonly invitedBy?: string
}
