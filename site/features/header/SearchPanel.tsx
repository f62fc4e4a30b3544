import { type FormEvent, useEffect, useRef } from 'react'
import { searchHref } from './search'

const SEARCH_HINT = 'Popular: Whisker Oil, Whisker Tamer, Whisker Wash, HEAL HER'

/**
 * The search panel under the bar; its field takes focus as it opens. Without JavaScript the form is a plain
 * GET to /shop?search=….
 */
export function SearchPanel({ open }: { open: boolean }) {
  const inputRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (open) inputRef.current?.focus()
  }, [open])

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const href = searchHref(inputRef.current?.value ?? '')
    if (href) window.location.assign(href)
  }
  return (
    <search id="site-search" className="search-panel" hidden={!open}>
      <form action="/shop" method="get" className="container search-form" onSubmit={submitSearch}>
        <label htmlFor="site-search-input" className="sr-only">
          Search products
        </label>
        <input
          ref={inputRef}
          id="site-search-input"
          className="field"
          type="search"
          name="search"
          placeholder="Search for products..."
          autoComplete="off"
          enterKeyHint="search"
          aria-describedby="site-search-hint"
        />
        <button type="submit" className="btn-primary">
          Search
        </button>
        <p id="site-search-hint" className="search-hint">
          {SEARCH_HINT}
        </p>
      </form>
    </search>
  )
}
