// Summarises a V8 .cpuprofile by self time: per package (or compiled RefDesk file) and per function.
//   node bench/lib/cpuprofile.mjs FILE.cpuprofile
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function summarize(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const self = new Map(profile.nodes.map((n) => [n.id, 0]))
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], self.get(profile.samples[i]) + (profile.timeDeltas[i] ?? 0))
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const byPackage = new Map()
  const byFunction = new Map()
  for (const node of profile.nodes) {
    const { url, functionName, lineNumber } = node.callFrame
    const pkg =
      url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
      (url.includes('/dist/')
        ? `refdesk ${url.split('/dist/')[1]}`
        : url.startsWith('node:')
          ? url
          : functionName || '(native)')
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + self.get(node.id))
    const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + self.get(node.id))
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n')
  console.log(
    `\nself time by package/file\n${top(byPackage, 20)}\n\nself time by function\n${top(byFunction, 25)}`,
  )
  process.exit()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(summarize(process.argv[2]))
