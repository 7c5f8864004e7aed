// The test app of test/helpers, logging at debug level into the run's logs, with every key it issues
// remembered for the secrets scan.
import { buildTestApp, type TestApp } from '../../test/helpers/app.js'
import { debugLogger, rememberSecrets } from './logs.js'

export async function buildReliabilityApp(
  name: string,
  options: Omit<Parameters<typeof buildTestApp>[0], 'logger'> = {},
): Promise<TestApp> {
  const t = await buildTestApp({ ...options, logger: debugLogger(name) })
  const partner = t.partner
  t.partner = async (options) => {
    const issued = await partner(options)
    rememberSecrets(issued.key)
    return issued
  }
  return t
}
