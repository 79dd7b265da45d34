import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';

import {
  FORM_BOUNDS,
  type Lawyer,
  type LawyerSaveRequest,
  MESSAGES,
  REMINDER_FREQUENCY,
} from '../../../../shared';
import { LAWYER_FORM_TEXT as TEXT } from './strings';

type Field =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'mainEmail'
  | 'phoneNumber'
  | 'officeName'
  | 'googlePassword'
  | 'emailSignature'
  | 'reminderFrequency'
  | 'licenseKey';
export type LawyerFormValues = Record<Field, string>;
export type LawyerFormErrors = Partial<Record<Field, string>>;

/** Which form of spec §5: the lawyer's (Google password optional, reminder 1 to 30 days) or the notary's. */
export type LawyerFormVariant = 'lawyer' | 'notary';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The rules of spec §5 for the notary form, and the lawyer form ("same, except googlePassword is
 * optional and reminderFrequency is chosen from 1 to 30 days"). Every message is the spec's.
 */
export function validateLawyerForm(values: LawyerFormValues, variant: LawyerFormVariant): LawyerFormErrors {
  const errors: LawyerFormErrors = {};
  if (values.firstName.trim().length < FORM_BOUNDS.personNameMin)
    errors.firstName = MESSAGES.validation.firstName;
  if (values.lastName.trim().length < FORM_BOUNDS.personNameMin)
    errors.lastName = MESSAGES.validation.lastName;
  if (!EMAIL.test(values.email.trim())) errors.email = MESSAGES.validation.email;
  if (values.mainEmail.trim() && !EMAIL.test(values.mainEmail.trim()))
    errors.mainEmail = MESSAGES.validation.mainEmail;
  if (values.phoneNumber.trim().length < FORM_BOUNDS.phoneMin)
    errors.phoneNumber = MESSAGES.validation.phoneNumber;
  if (values.officeName.trim().length < FORM_BOUNDS.officeNameMin)
    errors.officeName = MESSAGES.validation.officeName;
  if (variant === 'notary' && values.googlePassword.trim().length < 1) {
    errors.googlePassword = MESSAGES.validation.googlePassword;
  }
  const frequency = Number(values.reminderFrequency);
  if (
    values.reminderFrequency.trim() &&
    (!Number.isInteger(frequency) || frequency < REMINDER_FREQUENCY.min)
  ) {
    errors.reminderFrequency = MESSAGES.validation.required;
  }
  return errors;
}

/** The form's values for a stored profile (its secrets are never sent to the browser: blank). */
export function lawyerFormValues(
  lawyer: Lawyer | null,
  defaults: Partial<LawyerFormValues> = {},
): LawyerFormValues {
  return {
    firstName: lawyer?.firstName ?? '',
    lastName: lawyer?.lastName ?? '',
    email: lawyer?.email ?? '',
    mainEmail: lawyer && lawyer.mainEmail !== lawyer.email ? lawyer.mainEmail : '',
    phoneNumber: lawyer?.phoneNumber ?? '',
    officeName: lawyer?.officeName ?? '',
    googlePassword: '',
    emailSignature: lawyer?.emailSignature ?? '',
    reminderFrequency: String(lawyer?.reminderFrequency ?? REMINDER_FREQUENCY.default),
    licenseKey: lawyer?.licenseKey ?? '',
    ...defaults,
  };
}

/**
 * The save request of the form. A Google password left blank while one is stored is left out, so
 * the stored one is kept (the browser never holds it); the main e-mail defaults to the Google one.
 */
export function lawyerSaveRequest(values: LawyerFormValues, keepStoredPassword: boolean): LawyerSaveRequest {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    mainEmail: values.mainEmail.trim() || values.email.trim(),
    phoneNumber: values.phoneNumber.trim(),
    officeName: values.officeName.trim(),
    emailSignature: values.emailSignature.trim(),
    reminderFrequency: Number(values.reminderFrequency) || REMINDER_FREQUENCY.default,
    ...(values.licenseKey.trim() ? { licenseKey: values.licenseKey.trim() } : {}),
    ...(values.googlePassword.trim() || !keepStoredPassword ? { googlePassword: values.googlePassword } : {}),
  };
}

const REMINDER_OPTIONS = Array.from(
  { length: REMINDER_FREQUENCY.max - REMINDER_FREQUENCY.min + 1 },
  (_, index) => {
    const days = String(REMINDER_FREQUENCY.min + index);
    return { value: days, label: TEXT.days(Number(days)) };
  },
);

export interface LawyerFormProps {
  readonly variant: LawyerFormVariant;
  readonly initial: LawyerFormValues;
  /** Whether a Google password is stored: a blank field then keeps it. */
  readonly hasStoredPassword?: boolean;
  /** Whether the licence key can be typed (the admin's form; blank: the server generates one). */
  readonly showLicenseKey?: boolean;
  readonly submitLabel: string;
  readonly onSubmit: (request: LawyerSaveRequest) => Promise<void>;
  readonly onCancel?: () => void;
}

/** The lawyer / notary profile form of spec §5, used by the admin and by the lawyer himself. */
export function LawyerForm({
  variant,
  initial,
  hasStoredPassword = false,
  showLicenseKey = false,
  submitLabel,
  onSubmit,
  onCancel,
}: LawyerFormProps) {
  const [values, setValues] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const errors = submitted ? validateLawyerForm(values, variant) : {};
  const set =
    (field: Field) =>
    ({ detail }: { detail: { value: string } }) =>
      setValues((current) => ({ ...current, [field]: detail.value }));

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(validateLawyerForm(values, variant)).length > 0) return;
    setSaving(true);
    try {
      await onSubmit(lawyerSaveRequest(values, hasStoredPassword));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Form
        actions={
          <SpaceBetween direction="horizontal" size="xs">
            {onCancel && (
              <Button formAction="none" variant="link" disabled={saving} onClick={onCancel}>
                {TEXT.cancel}
              </Button>
            )}
            <Button variant="primary" loading={saving}>
              {submitLabel}
            </Button>
          </SpaceBetween>
        }
      >
        <SpaceBetween size="m">
          <ColumnLayout columns={2}>
            <FormField label={TEXT.firstName} errorText={errors.firstName}>
              <Input value={values.firstName} autoComplete="given-name" onChange={set('firstName')} />
            </FormField>
            <FormField label={TEXT.lastName} errorText={errors.lastName}>
              <Input value={values.lastName} autoComplete="family-name" onChange={set('lastName')} />
            </FormField>
            <FormField label={TEXT.email} description={TEXT.emailHint} errorText={errors.email}>
              <Input type="email" value={values.email} onChange={set('email')} />
            </FormField>
            <FormField label={TEXT.mainEmail} description={TEXT.mainEmailHint} errorText={errors.mainEmail}>
              <Input type="email" value={values.mainEmail} onChange={set('mainEmail')} />
            </FormField>
            <FormField label={TEXT.phoneNumber} errorText={errors.phoneNumber}>
              <Input
                inputMode="tel"
                value={values.phoneNumber}
                autoComplete="tel"
                onChange={set('phoneNumber')}
              />
            </FormField>
            <FormField label={TEXT.officeName} errorText={errors.officeName}>
              <Input value={values.officeName} autoComplete="organization" onChange={set('officeName')} />
            </FormField>
            <FormField
              label={variant === 'notary' ? TEXT.googlePassword : TEXT.googlePasswordOptional}
              description={hasStoredPassword ? TEXT.googlePasswordKept : TEXT.googlePasswordHint}
              errorText={errors.googlePassword}
            >
              <Input
                type="password"
                value={values.googlePassword}
                autoComplete="new-password"
                onChange={set('googlePassword')}
              />
            </FormField>
            <FormField label={TEXT.reminderFrequency} errorText={errors.reminderFrequency}>
              {variant === 'lawyer' ? (
                <Select
                  selectedOption={
                    REMINDER_OPTIONS.find((option) => option.value === values.reminderFrequency) ?? null
                  }
                  options={REMINDER_OPTIONS}
                  onChange={({ detail }) =>
                    set('reminderFrequency')({ detail: { value: detail.selectedOption.value ?? '' } })
                  }
                />
              ) : (
                <Input
                  type="number"
                  inputMode="numeric"
                  value={values.reminderFrequency}
                  onChange={set('reminderFrequency')}
                />
              )}
            </FormField>
            {showLicenseKey && (
              <FormField
                label={TEXT.licenseKey}
                description={TEXT.licenseKeyHint}
                errorText={errors.licenseKey}
              >
                <Input value={values.licenseKey} onChange={set('licenseKey')} />
              </FormField>
            )}
          </ColumnLayout>
          <FormField label={TEXT.emailSignature} errorText={errors.emailSignature}>
            <Textarea value={values.emailSignature} rows={3} onChange={set('emailSignature')} />
          </FormField>
        </SpaceBetween>
      </Form>
    </form>
  );
}
