// The outbound address guard moved to net/ when busy calendars began fetching through it too; the
// dispatcher and its settings keep importing it from here.
export * from '../net/address-guard.js'
