import { el } from './dom.js';

/**
 * Ask the user to confirm an action in a modal dialog (focus kept inside, Escape cancels); resolves
 * true only when the confirming button was pressed. `dismissLabel` names the other button, for when
 * "Cancel" would be ambiguous (cancelling a backfill).
 */
export function confirmAction(
  question: string,
  detail: string,
  confirmLabel: string,
  dismissLabel = 'Cancel',
): Promise<boolean> {
  const confirm = el('button', { type: 'button', class: 'danger' }, confirmLabel);
  const cancel = el('button', { type: 'button', class: 'secondary' }, dismissLabel);
  const dialog = el(
    'dialog',
    { 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-detail' },
    el('h2', { id: 'confirm-title' }, question),
    el('p', { id: 'confirm-detail' }, detail),
    el('div', { class: 'actions' }, cancel, confirm),
  );
  const opener = document.activeElement as HTMLElement | null;
  document.body.append(dialog);
  return new Promise((resolve) => {
    const close = (confirmed: boolean) => {
      dialog.close();
      dialog.remove();
      // A polled table may have redrawn the opener's row meanwhile: its new button takes the focus.
      const key = opener?.dataset.focusKey;
      const back = opener?.isConnected
        ? opener
        : key
          ? document.querySelector<HTMLElement>(`[data-focus-key="${key}"]`)
          : null;
      back?.focus();
      resolve(confirmed);
    };
    confirm.addEventListener('click', () => close(true));
    cancel.addEventListener('click', () => close(false));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close(false);
    });
    dialog.showModal();
    cancel.focus();
  });
}
