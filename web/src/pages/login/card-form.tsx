import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import Header from '@cloudscape-design/components/header';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';

/**
 * What sending a card form came to: the browser is leaving the page (signed in, or off to the
 * payment page), so the button stays busy; or the French error already shown as a toast.
 */
export type SubmitOutcome = { readonly leaving: true } | { readonly leaving: false; readonly error: string };

/** The state of one card form: whether it is being sent, its last error, and its submit handler. */
export interface CardSubmit {
  readonly submitting: boolean;
  readonly error: string | undefined;
  readonly submit: (event: FormEvent) => Promise<void>;
}

/**
 * The submit cycle the login card's forms share: validate (the form shows its own field errors and
 * returns undefined), then send once at a time, and stay busy when the page is being left.
 *
 * @param validate the checked request, or undefined when a field is wrong
 * @param send sends the request and says what came of it; it never throws
 */
export function useCardSubmit<R>(
  validate: () => R | undefined,
  send: (request: R) => Promise<SubmitOutcome>,
): CardSubmit {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string>();
  // A ref, not the state: a second click in the same render must not send twice.
  const sending = useRef(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const request = validate();
    if (request === undefined) return;
    sending.current = true;
    setError(undefined);
    setSubmitting(true);
    const outcome = await send(request);
    if (outcome.leaving) return;
    sending.current = false;
    setError(outcome.error);
    setSubmitting(false);
  };

  return { submitting, error, submit };
}

interface CardFormProps {
  readonly title: string;
  readonly description: string;
  readonly submitLabel: string;
  /** What the submit button reads while the form is being sent. */
  readonly busyLabel: string;
  readonly state: CardSubmit;
  readonly children: ReactNode;
}

/** A form of the login card: its heading, its fields, and one primary button that turns busy. */
export function CardForm({ title, description, submitLabel, busyLabel, state, children }: CardFormProps) {
  return (
    <form onSubmit={(event) => void state.submit(event)} noValidate>
      <Form
        header={
          <Header variant="h1" description={description}>
            {title}
          </Header>
        }
        errorText={state.error}
        actions={
          <Button variant="primary" formAction="submit" loading={state.submitting}>
            {state.submitting ? busyLabel : submitLabel}
          </Button>
        }
      >
        {children}
      </Form>
    </form>
  );
}
