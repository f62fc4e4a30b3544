import type { ReactNode } from 'react'

/** A titled dashboard panel with its loading and error lines. */
export function Section(props: {
  id: string
  title: string
  loading: boolean
  error: Error | null
  hasData: boolean
  loadingText: string
  /** Shown under the title whatever the state (the orders' search, which must stay usable on an error). */
  toolbar?: ReactNode
  /**
   * Draw the children from the start (they show placeholders until the data comes), so the panel is as
   * tall while loading as after and nothing below it moves; the loading line is then for screen readers.
   */
  keepShape?: boolean
  children: ReactNode
}) {
  return (
    <section
      aria-labelledby={`${props.id}-heading`}
      className="rounded-lg border border-line bg-surface p-4 sm:p-6"
    >
      {/* Focusable from script: where the focus goes when what held it in the panel is gone (list-place.ts). */}
      <h2 id={`${props.id}-heading`} className="text-xl font-bold uppercase" tabIndex={-1}>
        {props.title}
      </h2>
      {props.toolbar && <div className="mt-4">{props.toolbar}</div>}
      {props.error && (
        <p role="alert" className="mt-2 text-sm font-semibold text-danger">
          {props.hasData ? 'Could not refresh: ' : 'Could not load: '}
          {props.error.message}
        </p>
      )}
      {!props.hasData && props.loading && !props.error && (
        <p role="status" className={props.keepShape ? 'sr-only' : 'mt-3 text-muted'}>
          {props.loadingText}
        </p>
      )}
      {(props.hasData || props.keepShape) && <div className="mt-4">{props.children}</div>}
    </section>
  )
}
