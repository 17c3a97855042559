/** Draws one record's row; `before` is its row as last drawn, if any. */
export type DrawRow<T> = (record: T, before: HTMLTableRowElement | undefined) => HTMLTableRowElement;

/**
 * A table body redrawn from polled records, each row kept by id and redrawn only when its record
 * changed, so an open `<details>` stays open and the focused control keeps the focus (found again by
 * its `data-focus-key` when its row was redrawn). Returns the function to call with each new page.
 */
export function keptRows<T extends { id: string }>(
  body: HTMLElement,
  draw: DrawRow<T>,
): (records: readonly T[]) => void {
  const rows = new Map<string, { json: string; row: HTMLTableRowElement }>();
  return (records) => {
    const fresh = records.map((record) => {
      const json = JSON.stringify(record);
      const kept = rows.get(record.id);
      if (kept && kept.json === json) return kept.row;
      const row = draw(record, kept?.row);
      rows.set(record.id, { json, row });
      return row;
    });
    const focused = document.activeElement;
    const focusKey = focused instanceof HTMLElement ? focused.dataset.focusKey : undefined;
    body.replaceChildren(...fresh);
    if (focusKey && !body.contains(focused))
      body.querySelector<HTMLElement>(`[data-focus-key="${focusKey}"]`)?.focus();
    for (const id of rows.keys()) if (!records.some((record) => record.id === id)) rows.delete(id);
  };
}
