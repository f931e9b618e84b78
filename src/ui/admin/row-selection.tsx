import { useState } from 'react'
import { checkedOf } from '../events.ts'
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js'

/** The rows ticked in a table, by id, and how the table's checkboxes change them. */
export interface RowSelection {
  selected: ReadonlySet<number>
  /** ticks or unticks one row */
  toggle: (id: number, on: boolean) => void
  /** ticks every loaded row, or unticks all */
  toggleAll: (on: boolean) => void
}

/**
 * The row selection of an administrator table (channels, redemption codes): `clear` after a
 * search or a batch action, `drop` after a row is deleted.
 */
export function useRowSelection(rows: readonly { id: number }[]): RowSelection & { clear: () => void; drop: (id: number) => void } {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  return {
    selected,
    toggle: (id, on) =>
      setSelected((s) => {
        const next = new Set(s)
        if (on) next.add(id)
        else next.delete(id)
        return next
      }),
    toggleAll: (on) => setSelected(on ? new Set(rows.map((r) => r.id)) : new Set()),
    clear: () => setSelected(new Set()),
    drop: (id) => setSelected((s) => new Set([...s].filter((x) => x !== id))),
  }
}

/** The select-all header cell: ticked when every row is, indeterminate when only some are. */
export function SelectAllCell({ rows, selection, label }: { rows: readonly { id: number }[]; selection: RowSelection; label: string }) {
  const all = rows.length > 0 && rows.every((r) => selection.selected.has(r.id))
  const some = !all && rows.some((r) => selection.selected.has(r.id))
  return (
    <th className="tg-admin__check">
      <sl-checkbox
        checked={all}
        indeterminate={some}
        data-action="select-all"
        onsl-change={(e: Event) => selection.toggleAll(checkedOf(e))}
      >
        <span className="visually-hidden">{label}</span>
      </sl-checkbox>
    </th>
  )
}

/** The checkbox cell of one row. */
export function SelectRowCell({ id, selection, label }: { id: number; selection: RowSelection; label: string }) {
  return (
    <td className="tg-admin__check">
      <sl-checkbox checked={selection.selected.has(id)} data-action="select" onsl-change={(e: Event) => selection.toggle(id, checkedOf(e))}>
        <span className="visually-hidden">{label}</span>
      </sl-checkbox>
    </td>
  )
}
