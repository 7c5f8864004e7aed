// Templates and the stylesheet live in src/web (tsc copies no assets). `../../src/web/` names that folder
// from src/web/*.ts under vitest and from dist/web/*.js once built alike.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const WEB_ROOT = new URL('../../src/web/', import.meta.url)

export const VIEWS_DIR = fileURLToPath(new URL('views/', WEB_ROOT))

/** The stylesheet, read once; its name carries a hash of its content, so browsers may cache it forever. */
export function loadStylesheet(): { name: string; css: Buffer } {
  const css = readFileSync(new URL('public/app.css', WEB_ROOT))
  return { name: `app.${createHash('sha256').update(css).digest('hex').slice(0, 12)}.css`, css }
}
