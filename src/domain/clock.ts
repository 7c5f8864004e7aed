// Ids and time in one place so tests and stores agree on their forms.
import { createId } from '@paralleldrive/cuid2'

export const newId = (): string => createId()

/** `YYYY-MM-DDTHH:MM:SS.sssZ`, the one time format stored and rendered. */
export const nowIso = (): string => new Date().toISOString()
