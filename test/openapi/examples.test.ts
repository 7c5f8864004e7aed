// Every operation of the document (webhooks included) shows a request and a response example, and every
// example in the document is valid against the schema beside it: whatever operation is added, with
// defineOperation or otherwise, is held to the same.
import { beforeAll, describe, expect, it } from 'vitest'
import { fetchDocument, operationsOf, schemaValidator } from './helpers.js'

describe('examples in the OpenAPI document', () => {
  let doc: any
  let compile: ReturnType<typeof schemaValidator>
  beforeAll(async () => {
    doc = await fetchDocument()
    compile = schemaValidator(doc)
  })

  /** Each example of the document with the schema it must satisfy. */
  function examples(): { where: string; schema: object; example: unknown }[] {
    const found: { where: string; schema: object; example: unknown }[] = []
    for (const { where, op } of operationsOf(doc)) {
      for (const p of op.parameters ?? [])
        found.push({ where: `${where} parameter ${p.name}`, schema: p.schema, example: p.example })
      const body = op.requestBody?.content?.['application/json']
      if (body) found.push({ where: `${where} request`, schema: body.schema, example: body.example })
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const media = response.content?.['application/json']
        if (media) found.push({ where: `${where} ${status}`, schema: media.schema, example: media.example })
      }
    }
    for (const [name, schema] of Object.entries<any>(doc.components.schemas))
      for (const example of schema.examples ?? []) found.push({ where: name, schema, example })
    return found
  }

  it('has a request example wherever a request has parts, and a response example for every response', () => {
    const missing = examples().filter((e) => e.example === undefined)
    expect(missing.map((e) => e.where)).toEqual([])
    for (const { where, op } of operationsOf(doc)) {
      const shown = Object.values<any>(op.responses).some((r) => r.content?.['application/json']?.example)
      if (!where.startsWith('webhook')) expect(shown, where).toBe(true)
    }
  })

  it('validates every example against its schema', () => {
    const invalid = examples().flatMap(({ where, schema, example }) => {
      const validate = compile(schema)
      return validate(example) ? [] : [`${where}: ${JSON.stringify(validate.errors?.slice(0, 2))}`]
    })
    expect(invalid).toEqual([])
    expect(examples().length).toBeGreaterThan(150)
  })

  it('gives every shared component a whole example', () => {
    for (const name of ['League', 'Game', 'GameDetail', 'Official', 'Payment', 'Assignment', 'Delivery'])
      expect(doc.components.schemas[name].examples, name).toHaveLength(1)
  })
})
