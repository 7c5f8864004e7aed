// A notification as its recipient reads it: subject, text part and HTML part, from the snapshot its change
// wrote (schemas/notifications.ts) and the recipient's time zone. Templates are Eta's, in templates/; the
// HTML one escapes every `<%= %>` as the app's pages do, the text one writes plain text and so escapes
// nothing (it is never read as HTML). What a partner wrote (sport, place, league, position, names) stands
// only after a label on a line of its own, flattened to one line, so it can never start a line that reads
// as RefDesk's own words: headings and leads are RefDesk's alone (DESIGN "Consent").
import { fileURLToPath } from 'node:url'
import { Eta } from 'eta'
import {
  NOTIFICATION_WORD,
  type NotificationKindName,
  type NotificationPayload,
} from '../schemas/notifications.js'

// tsc copies no assets: `../../src/notifications/` names the folder from src/ under vitest and from dist/.
const TEMPLATES = fileURLToPath(new URL('../../src/notifications/templates/', import.meta.url))
const html = new Eta({ views: TEMPLATES, cache: true, autoEscape: true })
// Every line of the text part is a line of the mail: no newline is trimmed but where a tag says `-%>`.
const text = new Eta({ views: TEMPLATES, cache: true, autoEscape: false, autoTrim: false })

/** Where a mail's links point: whole URLs. */
export interface MailLinks {
  /** The page the mail is about: the official's Schedule or Earnings, the organizer's league. */
  readonly action: string
  readonly unsubscribe: string
  readonly preferences: string
  /** `invited`: the one-press "Not you? Stop all mail". */
  readonly stopAll?: string
}

export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

interface Model {
  subject: string
  word: string
  accent: string
  heading: string
  lead: string
  changes: { label: string; from: string; to: string }[]
  facts: { label: string; value: string }[]
  action: { href: string; label: string }
  reason: string
  unsubscribe: string
  preferences: string
  stopAll: string | null
}

const formats = new Map<string, { long: Intl.DateTimeFormat; short: Intl.DateTimeFormat }>()

/** "Sat, May 2, 2026, 3:00 PM EDT" and, for subjects, "Sat, May 2, 3:00 PM EDT", in the zone. */
function dateTime(iso: string, timeZone: string, style: 'long' | 'short'): string {
  let format = formats.get(timeZone)
  if (!format) {
    const base = {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    } as const
    format = {
      long: new Intl.DateTimeFormat('en-US', { ...base, year: 'numeric' }),
      short: new Intl.DateTimeFormat('en-US', base),
    }
    formats.set(timeZone, format)
  }
  return format[style].format(new Date(iso))
}

/**
 * Subjects and every labelled value are one line whatever a partner wrote: each line break (CR, LF, the
 * Unicode separators, vertical tab, form feed, NEL) and tab becomes a space.
 */
const oneLine = (value: string): string => value.replace(/[\r\n\t\v\f\u0085\u2028\u2029]+/g, ' ').trim()

const length = (minutes: number): string => `${minutes} minutes`

const money = (cents: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100)

export function renderNotification(
  kind: NotificationKindName,
  payload: NotificationPayload,
  timeZone: string,
  links: MailLinks,
): RenderedMail {
  const model = modelOf(kind, payload, timeZone, links)
  return {
    subject: model.subject,
    text: text.render('mail-text', model),
    html: html.render('mail-html', model),
  }
}

function modelOf(
  kind: NotificationKindName,
  p: NotificationPayload,
  timeZone: string,
  links: MailLinks,
): Model {
  const word = NOTIFICATION_WORD[kind]
  const sport = p.sport || 'Game'
  const when = dateTime(p.startsAt, timeZone, 'long')
  const what = kindText(kind)
  return {
    subject:
      kind === 'invited'
        ? oneLine(`${word}: ${p.leagueName}`)
        : oneLine(`${word}: ${sport}, ${dateTime(p.startsAt, timeZone, 'short')}`),
    word,
    accent: kind === 'cancelled' || kind === 'unassigned' || kind === 'turnback' ? '#b91c1c' : '#1d4ed8',
    heading: what.heading,
    lead: what.lead,
    changes: changesOf(p, timeZone).map((c) => ({ ...c, from: oneLine(c.from), to: oneLine(c.to) })),
    facts: (kind === 'invited' ? inviteFacts(p) : gameFacts(p, sport, when)).map((f) => ({
      ...f,
      value: oneLine(f.value),
    })),
    action: { href: links.action, label: what.action },
    reason:
      kind === 'invited'
        ? 'a league on RefDesk added this address as an official'
        : `${word} emails are on in your RefDesk profile`,
    unsubscribe: links.unsubscribe,
    preferences: links.preferences,
    stopAll: links.stopAll ?? null,
  }
}

function inviteFacts(p: NotificationPayload): Model['facts'] {
  return [
    { label: 'League', value: p.leagueName },
    { label: 'Added by', value: p.invitedBy ?? 'the league’s organizer' },
  ]
}

function gameFacts(p: NotificationPayload, sport: string, when: string): Model['facts'] {
  return [
    { label: 'Sport', value: sport },
    { label: 'When', value: when },
    ...(p.durationMinutes !== undefined ? [{ label: 'Length', value: length(p.durationMinutes) }] : []),
    { label: 'Where', value: p.location || 'Location to be announced' },
    { label: 'League', value: p.leagueName },
    { label: 'Position', value: p.label },
    ...(p.official ? [{ label: 'Official', value: p.official.name || p.official.email }] : []),
    ...(p.amount ? [{ label: 'Amount', value: money(p.amount.cents, p.amount.currency) }] : []),
  ]
}

/** RefDesk's own words of each kind: nothing a partner wrote (that stands on the labelled lines). */
function kindText(kind: NotificationKindName): { heading: string; lead: string; action: string } {
  switch (kind) {
    case 'assigned':
      return {
        heading: 'You are assigned',
        lead: 'You have been assigned to the game below.',
        action: 'Open your schedule',
      }
    case 'changed':
      return {
        heading: 'Game changed',
        lead: 'A game you hold has changed. It now stands as below.',
        action: 'Open your schedule',
      }
    case 'cancelled':
      return {
        heading: 'Game cancelled',
        lead: 'The game below is cancelled. You do not need to go.',
        action: 'Open your schedule',
      }
    case 'unassigned':
      return {
        heading: 'You are off a game',
        lead: 'You no longer hold the position below.',
        action: 'Open your schedule',
      }
    case 'reminder':
      return {
        heading: 'Coming up',
        lead: 'A reminder of the game below, which you hold.',
        action: 'Open your schedule',
      }
    case 'turnback':
      return {
        heading: 'Turned back',
        lead: 'An official gave back the position below. It is open again.',
        action: 'Open the league',
      }
    case 'paid':
      return {
        heading: 'You were paid',
        lead: 'Your payment for the game below is paid.',
        action: 'Open your earnings',
      }
    case 'invited':
      return {
        heading: 'You were added to a league',
        lead:
          'A league below added this address as an official on RefDesk, and mails follow. Join it to let it ' +
          'see when you are unavailable; until you do it sees only its own games of yours.',
        action: 'Join',
      }
  }
}

function changesOf(p: NotificationPayload, timeZone: string): Model['changes'] {
  const before = p.before
  if (!before) return []
  return (p.changes ?? []).flatMap((change) => {
    switch (change) {
      case 'time':
        return [
          {
            label: 'Time',
            from: dateTime(before.startsAt, timeZone, 'long'),
            to: dateTime(p.startsAt, timeZone, 'long'),
          },
        ]
      case 'length':
        return before.durationMinutes === undefined || p.durationMinutes === undefined
          ? []
          : [{ label: 'Length', from: length(before.durationMinutes), to: length(p.durationMinutes) }]
      case 'place':
        return [
          {
            label: 'Place',
            from: before.location || 'Location to be announced',
            to: p.location || 'Location to be announced',
          },
        ]
    }
  })
}
