// Runs bench/lib/load.mjs in a child process and returns its figures.
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const LOAD = fileURLToPath(new URL('./load.mjs', import.meta.url))

export function loadTest(url, { connections = 50, seconds, authorization = '' }) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [LOAD, url, String(connections), String(seconds), authorization],
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`load process failed: ${stderr || error.message}`))
        const figures = JSON.parse(stdout)
        if (figures.non2xx || figures.errors) return reject(new Error(`load on ${url}: ${stdout}`))
        resolve(figures)
      },
    )
  })
}
