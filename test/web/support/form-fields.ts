import createWrapper, {
  type FormFieldWrapper,
  type SelectWrapper,
} from '@cloudscape-design/components/test-utils/dom';
import { act, waitFor } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/** The form fields of the open dialog, or of the page when no dialog is open. */
function scope() {
  const modal = createWrapper(document.body).findModal();
  return createWrapper(modal ? modal.getElement() : document.body);
}

/** The form field with this label (in the open dialog if there is one). */
export function formField(label: string): FormFieldWrapper {
  const found = scope()
    .findAllFormFields()
    .find((candidate) => candidate.findLabel()?.getElement().textContent === label);
  if (!found) throw new Error(`Aucun champ « ${label} »`);
  return found;
}

/** The error text under the field with this label, or null. */
export function errorOf(label: string): string | null {
  return formField(label).findError()?.getElement().textContent ?? null;
}

/** The input or textarea of the field with this label. */
export function inputOf(label: string): HTMLInputElement | HTMLTextAreaElement {
  const element = formField(label).getElement().querySelector('input, textarea');
  if (!element) throw new Error(`Le champ « ${label} » n'a pas de zone de saisie`);
  return element as HTMLInputElement | HTMLTextAreaElement;
}

/** Replaces the text of the field with this label, as a user typing would. */
export async function typeInto(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  const element = inputOf(label);
  await user.clear(element);
  if (value) await user.type(element, value);
}

/** The select of the field with this label. */
function selectOf(label: string): SelectWrapper {
  const select = formField(label).findControl()?.findSelect();
  if (!select) throw new Error(`Le champ « ${label} » n'est pas une liste`);
  return select;
}

/**
 * Opens a select and picks an option by value, as a user would once it is listed: a server's
 * options (a page of lawyers) may arrive after the dropdown opens. `select` is found anew at each
 * step, the page may have drawn it again. The wrappers' clicks run in a synchronous act(): awaited
 * in an async one, the updates that follow them (Cloudscape's motion observer) land inside it too.
 */
export async function pickOption(select: () => SelectWrapper, value: string) {
  await act(async () => select().openDropdown());
  // Only reads inside waitFor: its checks run outside act, where a click must not.
  await waitFor(() => expect(select().findDropdown().findOptionByValue(value)).not.toBeNull());
  await act(async () => select().selectOptionByValue(value));
}

/** Picks an option, by value, in the select of the field with this label. */
export function choose(label: string, value: string) {
  return pickOption(() => selectOf(label), value);
}
