import createWrapper, { type FormFieldWrapper } from '@cloudscape-design/components/test-utils/dom';
import type userEvent from '@testing-library/user-event';

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

/** Picks an option, by value, in the select of the field with this label. */
export function choose(label: string, value: string) {
  const select = formField(label).findControl()?.findSelect();
  if (!select) throw new Error(`Le champ « ${label} » n'est pas une liste`);
  select.openDropdown();
  select.selectOptionByValue(value);
}
