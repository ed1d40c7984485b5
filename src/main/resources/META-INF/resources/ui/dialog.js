// A confirmation in a modal <dialog>: the browser keeps the focus inside it and Escape cancels, unlike a
// hand-made overlay; unlike window.confirm() it can say what will happen in the page's own words.

import { h } from './dom.js';

/** Resolves to true when the user confirms. The safe choice (Cancel) has the focus. */
export function confirmAction(heading, text, action) {
  return new Promise(resolve => {
    const cancel = h('button', { type: 'button', value: 'cancel' }, 'Cancel');
    const confirm = h('button', { type: 'button', class: 'danger', value: 'confirm' }, action);
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text' },
      h('h2', { id: 'confirm-title' }, heading),
      h('p', { id: 'confirm-text' }, text),
      h('div', { class: 'actions' }, cancel, confirm));
    const close = result => {
      dialog.close();
      dialog.remove();
      resolve(result);
    };
    cancel.addEventListener('click', () => close(false));
    confirm.addEventListener('click', () => close(true));
    dialog.addEventListener('cancel', event => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
