/**
 * The stories every element gets, built from its custom-elements.json entry: a control per
 * attribute, and one story per state a person should see. Loading, empty, error, dark, zh-CN and
 * 375 px show the element for its usual viewer (`role`); signed out, user and admin show it to each.
 */
import type { Meta, StoryObj } from '@storybook/web-components-vite'
import manifest from '../custom-elements.json'
import type { TollgateParameters } from '../.storybook/preview.ts'
import type { Role } from '../scripts/capture-fixtures.ts'

type Args = Record<string, string | boolean>
export type Story = StoryObj<Args>

interface Attribute {
  name: string
  type?: { text: string }
  description?: string
}

function attributesOf(tag: string): Attribute[] {
  for (const mod of manifest.modules) {
    for (const d of mod.declarations as Array<{ tagName?: string; attributes?: Attribute[] }>) {
      if (d.tagName === tag) return d.attributes ?? []
    }
  }
  throw new Error(`${tag} is not in custom-elements.json`)
}

/** Spread into the story file's default export (CSF wants its title there literally): the element, its attribute controls, its usual viewer and console path. */
export function elementMeta(tag: string, role: Role, path?: (role: Role) => string): Meta<Args> {
  const attributes = attributesOf(tag)
  const isBoolean = (a: Attribute) => a.type?.text === 'boolean'
  return {
    component: tag,
    args: Object.fromEntries(attributes.map((a) => [a.name, isBoolean(a) ? false : ''])),
    argTypes: Object.fromEntries(
      attributes.map((a) => [
        a.name,
        { control: isBoolean(a) ? 'boolean' : 'text', description: a.description, table: { category: 'attributes' } },
      ]),
    ),
    render: (args) => {
      const el = document.createElement(tag)
      for (const a of attributes) {
        const value = args[a.name]
        if (isBoolean(a)) el.toggleAttribute(a.name, value === true)
        else if (typeof value === 'string' && value) el.setAttribute(a.name, value)
      }
      return el
    },
    parameters: { tollgate: { role, path: path?.(role) } satisfies TollgateParameters },
  }
}

const as = (tollgate: Partial<TollgateParameters>, extra: Story = {}): Story => ({ ...extra, parameters: { tollgate } })

/** One per state; `path` gives the console's address for a role (other elements have none). */
export const states = (path?: (role: Role) => string) => ({
  loading: as({ state: 'loading' }),
  empty: as({ state: 'empty' }),
  error: as({ state: 'error' }),
  signedOut: as({ role: 'signed-out', path: path?.('signed-out') }),
  user: as({ role: 'user', path: path?.('user') }),
  admin: as({ role: 'admin', path: path?.('admin') }),
  dark: { globals: { backgrounds: { value: 'dark' } } } satisfies Story,
  zhCN: as({ locale: 'zh' }),
  mobile375: { globals: { viewport: { value: 'mobile375', isRotated: false } } } satisfies Story,
})
