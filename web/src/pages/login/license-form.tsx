import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { type FormEvent, useState } from 'react';

import { MESSAGES } from '../../../../shared';
import { useAuth } from '../../auth/auth-context';
import { useFollow } from '../../layout/use-follow';
import { STRINGS } from '../../strings';
import { validateLicenseKey } from './login-config';
import styles from './login-page.module.css';

/** The licence-key sign-in form of the login card. */
export function LicenseForm({ onGetLicense }: { readonly onGetLicense: () => void }) {
  const { login } = useAuth();
  const follow = useFollow();
  const [licenseKey, setLicenseKey] = useState('');
  const [keyError, setKeyError] = useState<string>();
  const [loginError, setLoginError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const checked = validateLicenseKey(licenseKey);
    if (!checked.ok) {
      setKeyError(checked.error);
      return;
    }
    setKeyError(undefined);
    setLoginError(undefined);
    setSubmitting(true);
    const result = await login(checked.licenseKey);
    // On success the app has already moved to the role's home.
    if (!result.ok) {
      setLoginError(result.error);
      setSubmitting(false);
    }
  };

  return (
    <SpaceBetween size="l">
      <form onSubmit={submit} noValidate>
        <Form
          header={
            <Header variant="h1" description={STRINGS.login.description}>
              {STRINGS.login.title}
            </Header>
          }
          errorText={loginError}
          actions={
            <Button variant="primary" formAction="submit" loading={submitting}>
              {submitting ? MESSAGES.login.connectingButton : STRINGS.login.submit}
            </Button>
          }
        >
          <FormField label={STRINGS.login.licenseKeyLabel} errorText={keyError} stretch>
            <Input
              value={licenseKey}
              onChange={({ detail }) => setLicenseKey(detail.value)}
              placeholder={STRINGS.login.licenseKeyPlaceholder}
              invalid={keyError !== undefined}
              autoComplete="off"
              spellcheck={false}
              disableBrowserAutocorrect
              autoFocus
            />
          </FormField>
        </Form>
      </form>
      <SpaceBetween size="xs">
        <Box textAlign="center" color="text-body-secondary">
          {STRINGS.login.noLicenseYet}
        </Box>
        <div className={styles.buttonRow}>
          <Button onClick={onGetLicense}>{STRINGS.login.getLicense}</Button>
          <Button href="/discover" onFollow={follow}>
            {STRINGS.login.discover}
          </Button>
        </div>
      </SpaceBetween>
    </SpaceBetween>
  );
}
