// A game's end: its start plus its own length, else its league's gameMinutes. Stored with the game
// (`ends_at`) so every answer and every overlap check reads it without the league (docs/decisions.md).
const MINUTE_MS = 60_000

export function endOf(startsAt: string, minutes: number): string {
  return new Date(Date.parse(startsAt) + minutes * MINUTE_MS).toISOString()
}
