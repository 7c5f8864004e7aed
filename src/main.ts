#!/usr/bin/env node
// The `refdesk` bin: parse the command line, run the command, turn any failure into stderr and exit 1.
import { buildProgram } from './cli/program.js'
import { reportFailure } from './cli/output.js'

try {
  await buildProgram().parseAsync()
} catch (error) {
  reportFailure(error)
}
