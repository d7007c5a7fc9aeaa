import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import * as v from 'valibot';
import { isPlatformLocale } from '../../../../contract/locales.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { type UserUpdate, userUpdateSchema } from '../../../../contract/schemas/users.ts';
import { userNameSchema } from '../../../../contract/validation.ts';
import { AliasesEditor, aliasesOf, aliasRules } from '../../../components/aliases-editor.tsx';
import { notify } from '../../../components/notify.ts';
import { PageTitle } from '../../../components/page-title.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { currentUserKeys, useProfile } from '../../../lib/current-user.ts';
import { type FormValues, useForm } from '../../../lib/form/use-form.ts';
import { storeLanguageAndActivate } from '../../../lib/i18n.ts';
import { languageChoices, platformLocales } from '../../../lib/locales.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import { useGoBack } from '../../../lib/page-mode.ts';
import { usePublicResource } from '../../../lib/public-data.ts';
import { userNameExists, useUpdateProfile } from '../mutations.ts';

const IN_USE_MESSAGES = { user_name: msg`Username exists.` };

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The profile's fields in the shape of the request, as the form starts from them. */
function baseOf(profile: Profile) {
  return {
    first_name: profile.first_name,
    last_name: profile.last_name,
    user_name: profile.user_name,
    email: profile.email,
    phone: profile.phone ?? '',
    locale: profile.locale,
    ...(profile.access_scope === 'system' ? { aliases: profile.aliases } : {}),
  };
}

function ProfileEditForm({ loaded }: { loaded: Profile }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const goBack = useGoBack('edit');
  // The profile as the form opened, even if the cached one changes meanwhile: the change is made on
  // the version its user was shown.
  const [profile] = useState(loaded);
  const update = useUpdateProfile(profile);
  const { data: locales } = usePublicResource(platformLocales);
  const system = profile.access_scope === 'system';
  /** A user name the server said is taken (checked when the field is left), as typed. */
  const [takenName, setTakenName] = useState<string | null>(null);
  const [userName, setUserName] = useState(profile.user_name);
  const nameTaken = takenName !== null && sameName(takenName, userName);

  const form = useForm(userUpdateSchema, {
    request: (values: FormValues) => ({
      first_name: values.first_name ?? '',
      last_name: values.last_name ?? '',
      user_name: values.user_name ?? '',
      email: values.email ?? '',
      phone: values.phone ?? '',
      locale: values.locale ?? '',
      ...(system ? { aliases: aliasesOf(values) } : {}),
    }),
    refine: (values) => ({
      ...(system ? aliasRules(values) : {}),
      ...(takenName !== null && sameName(takenName, values.user_name ?? '') ? { user_name: 'inUse' } : {}),
    }),
    inUseMessages: IN_USE_MESSAGES,
    onSubmit: async (request: UserUpdate) => {
      const result = await update.mutateAsync({
        update: request,
        version: profile.version,
        base: baseOf(profile),
        idempotencyKey: newIdempotencyKey(),
      });
      // The chosen language is this browser's too, and every screen switches to it now (E-11, E-12).
      await storeLanguageAndActivate(request.locale);
      if (isQueued(result)) {
        notify('info', t`Saved on this device. The change is sent when the connection returns.`);
      } else {
        notify('success', t`User updated.`);
      }
      void navigate({ to: '/profile' });
    },
  });

  /** E-17: a name someone else has is said under the field as soon as it is left. */
  const checkUserName = async (value: string) => {
    if (sameName(value, profile.user_name) || !v.safeParse(userNameSchema, value).success) return;
    try {
      const { exists } = await userNameExists(value.trim());
      setTakenName(exists ? value : null);
    } catch {
      // Offline or failing: the server says it on save (409 inUse).
    }
  };

  const languageOptions = [
    ...(isPlatformLocale(profile.locale) ? [] : [{ value: '', label: t`Choose a language` }]),
    ...languageChoices(locales?.items).map((choice) => ({
      value: choice.code,
      label: choice.name,
      lang: choice.lang,
    })),
  ];
  const userNameField = form.field('user_name');

  return (
    <section className="page profile-edit" aria-labelledby="page-title">
      <PageTitle>
        <Trans>Edit profile</Trans>
      </PageTitle>
      <Form
        form={form}
        className="form"
        aria-labelledby="page-title"
        onReload={() =>
          void queryClient.invalidateQueries({ queryKey: currentUserKeys.profile(), exact: true })
        }
      >
        <div className="form__grid">
          <TextField
            label={t`First name`}
            {...form.field('first_name')}
            defaultValue={profile.first_name}
            autoComplete="given-name"
            required
          />
          <TextField
            label={t`Last name`}
            {...form.field('last_name')}
            defaultValue={profile.last_name}
            autoComplete="family-name"
            required
          />
        </div>
        <TextField
          label={t`Username`}
          {...userNameField}
          error={userNameField.error ?? (nameTaken ? t`Username exists.` : undefined)}
          defaultValue={profile.user_name}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          onChange={(event) => setUserName(event.currentTarget.value)}
          onBlur={(event) => void checkUserName(event.currentTarget.value)}
        />
        {profile.saml_username ? (
          <TextField label={t`SAML username`} defaultValue={profile.saml_username} readOnly />
        ) : null}
        {profile.oidc_username ? (
          <TextField label={t`OIDC username`} defaultValue={profile.oidc_username} readOnly />
        ) : null}
        <TextField
          label={t`Email`}
          {...form.field('email')}
          type="email"
          defaultValue={profile.email}
          autoComplete="email"
          description={t`A new address must be verified: we send a link to it.`}
          required
        />
        <TextField
          label={t`Phone`}
          {...form.field('phone')}
          type="tel"
          defaultValue={profile.phone ?? ''}
          autoComplete="tel"
          description={t`Spaces, dots, hyphens and brackets are removed when saved; a leading 00 becomes +.`}
        />
        <SelectField
          label={t`Language`}
          {...form.field('locale')}
          defaultValue={isPlatformLocale(profile.locale) ? profile.locale : ''}
          options={languageOptions}
          required
        />
        {system ? <AliasesEditor initial={profile.aliases} form={form} /> : null}
        <div className="form__actions">
          <Button {...form.submitProps}>
            <Trans>Update</Trans>
          </Button>
          <Button variant="secondary" onClick={goBack}>
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </Form>
    </section>
  );
}

/** Edit one's own profile (E-02, E-05 … E-26). */
export function ProfileEditPage() {
  const profile = useProfile();
  // A new version (reloaded after a conflict) starts the form again from it.
  return <ProfileEditForm key={profile.version} loaded={profile} />;
}
