import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { SessionRepository } from '../../../../functions/data/identity/sessions';
import { MESSAGES } from '../../../../shared/messages';
import type { ProfileReply, WorkflowList } from '../../../../shared/schemas/directory';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import {
  callRoute,
  createSignedInLawyer,
  issueAndSignIn,
  lawyerFields,
  signIn,
  workflowFields,
} from '../../../support/directory';

describe('the signed-in lawyer’s own profile (/api/me)', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'));
    admin = (await issueAndSignIn(app, 'admin')).token;
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('reads the profile an admin created for him', async () => {
    const lawyer = await createSignedInLawyer(app, admin);

    const { statusCode, body } = await callRoute<ProfileReply>(app, 'getProfile', { token: lawyer.token });

    expect(statusCode).toBe(200);
    // His own key in clear: the admin's replies show it masked.
    expect(body).toEqual({
      profile: { ...lawyer.lawyer, licenseKey: lawyer.licenseKey },
      sessionEmail: lawyer.email,
      sessionEmailChanged: false,
    });
  });

  it('has no profile until he configures his account, his licence e-mail standing in', async () => {
    const member = await issueAndSignIn(app, 'lawyer');

    const { body } = await callRoute<ProfileReply>(app, 'getProfile', { token: member.token });

    expect(body).toEqual({ profile: null, sessionEmail: member.email, sessionEmailChanged: false });
  });

  it('creates his profile bound to his own licence key, which then names him at sign-in', async () => {
    const member = await issueAndSignIn(app, 'lawyer');

    const { statusCode, body } = await callRoute<ProfileReply>(app, 'saveProfile', {
      token: member.token,
      body: lawyerFields({ email: member.email, firstName: 'Hélène', googlePassword: 'secret-google' }),
    });

    expect(statusCode).toBe(200);
    expect(body.profile).toMatchObject({
      firstName: 'Hélène',
      licenseKey: member.licenseKey,
      hasGooglePassword: true,
    });
    expect(app.lawyerSecrets.entries.get(body.profile!.id)?.googlePassword).toBe('secret-google');
    expect((await signIn(app, member.licenseKey)).displayName).toBe('Hélène Martin');
  });

  it('moves his session, his workflows and his claims to a new e-mail', async () => {
    const lawyer = await createSignedInLawyer(app, admin);
    await callRoute(app, 'createWorkflow', { token: admin, body: workflowFields(lawyer.email) });
    const newEmail = lawyerFields().email;

    const saved = await callRoute<ProfileReply>(app, 'saveProfile', {
      token: lawyer.token,
      body: lawyerFields({ email: newEmail }),
    });

    expect(saved.body).toMatchObject({ sessionEmail: newEmail, sessionEmailChanged: true });
    const again = await callRoute<ProfileReply>(app, 'getProfile', { token: lawyer.token });
    expect(again.body).toMatchObject({ sessionEmail: newEmail, sessionEmailChanged: false });
    const workflows = await callRoute<WorkflowList>(app, 'listWorkflows', { token: lawyer.token });
    expect(workflows.body.workflows.map((workflow) => workflow.lawyerEmail)).toEqual([newEmail]);
  });

  it('tells the client the e-mail of his profile when his session carries another', async () => {
    const lawyer = await createSignedInLawyer(app, admin);
    const session = await new SessionRepository(app.table).get(
      JSON.parse(Buffer.from(lawyer.token.split('.')[1]!, 'base64url').toString()).sub,
    );
    await new SessionRepository(app.table).updateEmail(session!.sessionId, 'ancienne@example.com');

    const { body } = await callRoute<ProfileReply>(app, 'getProfile', { token: lawyer.token });

    expect(body).toMatchObject({ sessionEmail: lawyer.email, sessionEmailChanged: true });
  });

  it('refuses a licence key that is not his own', async () => {
    const lawyer = await createSignedInLawyer(app, admin);
    const other = await createSignedInLawyer(app, admin);

    const { statusCode, body } = await callRoute(app, 'saveProfile', {
      token: lawyer.token,
      body: lawyerFields({ email: lawyer.email, licenseKey: other.licenseKey }),
    });

    expect(statusCode).toBe(403);
    expect(body).toEqual({ error: MESSAGES.session.forbidden });
  });

  it("refuses another lawyer's e-mail", async () => {
    const lawyer = await createSignedInLawyer(app, admin);
    const other = await createSignedInLawyer(app, admin);

    const { statusCode, body } = await callRoute(app, 'saveProfile', {
      token: lawyer.token,
      body: lawyerFields({ email: other.email }),
    });

    expect(statusCode).toBe(409);
    expect(body).toEqual({ error: MESSAGES.lawyerSave.conflict });
  });

  it('validates his form with the messages of spec §5', async () => {
    const lawyer = await createSignedInLawyer(app, admin);

    const { statusCode, body } = await callRoute(app, 'saveProfile', {
      token: lawyer.token,
      body: lawyerFields({ phoneNumber: '0142' }),
    });

    expect(statusCode).toBe(400);
    expect(body).toEqual({ error: MESSAGES.validation.phoneNumber });
  });
});
