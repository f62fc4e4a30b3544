import { type ReactNode, useEffect, useRef } from 'react'

/** A titled card of the profile tab, with its Edit button while it is in view mode. */
export function SectionCard(props: {
  id: string
  title: string
  editing?: boolean
  onEdit?: () => void
  editLabel?: string
  children: ReactNode
}) {
  // Editing swaps the card's view for its form and back: focus goes to the form's first field, and back to
  // Edit once the form is saved or cancelled, not to the page's start.
  const section = useRef<HTMLElement>(null)
  const wasEditing = useRef(props.editing)
  useEffect(() => {
    if (wasEditing.current === props.editing) return
    wasEditing.current = props.editing
    // A form that moved focus itself (to the field it starts with) keeps it.
    if (section.current?.contains(document.activeElement)) return
    const target = props.editing ? 'input, select, textarea' : 'button[data-edit]'
    section.current?.querySelector<HTMLElement>(target)?.focus()
  }, [props.editing])
  return (
    <section
      ref={section}
      aria-labelledby={`${props.id}-heading`}
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      <div className="flex items-center justify-between gap-4">
        <h3 id={`${props.id}-heading`} className="text-xl font-bold uppercase">
          {props.title}
        </h3>
        {props.onEdit && !props.editing && (
          <button
            type="button"
            data-edit
            className="btn-outline !px-3 !py-1.5 text-sm"
            onClick={props.onEdit}
            aria-label={`${props.editLabel ?? 'Edit'} ${props.title.toLowerCase()}`}
          >
            {props.editLabel ?? 'Edit'}
          </button>
        )}
      </div>
      <div className="mt-4">{props.children}</div>
    </section>
  )
}

/** Label and value pairs of a card in view mode. */
export function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-sm text-muted">{label}</dt>
          {/* Long e-mail addresses wrap anywhere instead of widening the page on a phone. */}
          <dd className="font-semibold [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * Save and Cancel under a card's form; both wait while a save is on its way, without `disabled`, which would
 * drop the focus of the one who pressed Save (a failed save leaves them on it, with the message).
 */
export function SaveButtons(props: { busy: boolean; onCancel: () => void; className?: string }) {
  const waiting = props.busy ? 'opacity-60' : ''
  return (
    <div className={props.className ?? 'flex gap-3'}>
      <button type="submit" className={`btn-primary ${waiting}`} aria-disabled={props.busy}>
        {props.busy ? 'Saving...' : 'Save'}
      </button>
      <button
        type="button"
        className={`btn-outline ${waiting}`}
        aria-disabled={props.busy}
        onClick={() => {
          if (!props.busy) props.onCancel()
        }}
      >
        Cancel
      </button>
    </div>
  )
}
