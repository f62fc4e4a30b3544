/** Shown only when scripting is off (account.css): the form next to it cannot work without its island. */
export function NeedsScriptNote({ action }: { action: string }) {
  return (
    <p className="needs-js-note mt-4 rounded-md border border-danger p-3 text-sm text-danger">
      This form needs JavaScript. Please turn it on to {action}.
    </p>
  )
}
