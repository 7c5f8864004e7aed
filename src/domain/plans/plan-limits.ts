// How big a plan may be and how many drafts a league keeps: one place for both, so the tournament issue
// raises the size with the solver's scale (DESIGN "Tournament scale") and the tests can lower them.

/**
 * The largest plan: open positions × the league's officials, the pairs the rules are asked about.
 * 2,000 officials × 500 positions (a big league's fortnight) fit; beyond it 409 plan_too_large, before
 * anything but the two lists is read.
 */
export const MAX_PLAN_PAIRS = 1_000_000

/**
 * Drafts kept per league, newest first: writing a new one deletes the older. Published plans stay (the
 * record of what was assigned, and each is as big as its window allowed).
 */
export const DRAFTS_KEPT = 10
