import {
  Anchor,
  Button,
  Card,
  Center,
  Divider,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconUser } from '@tabler/icons-react';
import { type ChangeEvent, useLayoutEffect, useState } from 'react';
import { revealScreen, screenDrawn } from '../runtime/screenPreview.ts';
import { ui } from '../runtime/uiText.ts';
import { type DemoAccount, demoAccountLabel, useRuntime } from './context.ts';
import { errorMessage } from './display.tsx';
import { LocaleSwitch } from './LocaleSwitch.tsx';

/** Sign in / sign up, with the demo accounts (embedded backend) one click away. */
export function AuthScreen() {
  const { model, backend, demoAccounts, signInDemo, authFailure } = useRuntime();
  // The last visit's screen, if its picture is still shown, is not who is here now.
  useLayoutEffect(() => {
    revealScreen();
    screenDrawn();
  }, []);
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [error, setError] = useState<string | null>(() =>
    authFailure ? errorMessage(model, authFailure) : null,
  );
  const [busy, setBusy] = useState(false);
  const go = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(model, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-body)">
      <Stack w="100%" maw={440} gap="lg">
        <Group justify="flex-end">
          <LocaleSwitch />
        </Group>
        <Stack gap={4} ta="center">
          <Title order={1} size="h2">
            {mode === 'in' ? ui('signInTitle') : ui('signUpTitle')}
          </Title>
          <Text c="dimmed">{ui('signInSubtitle', { name: model.purpose.name })}</Text>
        </Stack>
        {backend.kind === 'embedded' && (
          // Sign-in separates roles, not people sharing a browser: the database is in this profile.
          <Text size="sm" c="dimmed" ta="center" data-testid="embedded-data-notice">
            {ui('embeddedDataNotice')}
          </Text>
        )}
        {demoAccounts.length > 0 && mode === 'in' && (
          <DemoAccounts accounts={demoAccounts} busy={busy} onPick={(a) => go(() => signInDemo(a))} />
        )}
        <Card withBorder radius="md" padding="lg">
          <CredentialsForm
            mode={mode}
            busy={busy}
            error={error}
            onSubmit={(v) =>
              go(() =>
                mode === 'in'
                  ? backend.auth.signIn({ email: v.email, password: v.password })
                  : backend.auth.signUp(v),
              )
            }
          />
          <Divider my="md" />
          <Text size="sm" ta="center">
            {mode === 'in' ? ui('noAccount') : ui('haveAccount')}{' '}
            <Anchor
              component="button"
              type="button"
              onClick={() => {
                // A sign-in error says nothing about signing up (and the other way round).
                setError(null);
                setMode(mode === 'in' ? 'up' : 'in');
              }}
            >
              {mode === 'in' ? ui('signUp') : ui('signIn')}
            </Anchor>
          </Text>
        </Card>
      </Stack>
    </Center>
  );
}

interface Credentials {
  email: string;
  password: string;
  name: string;
}

/**
 * Email and password (and a name to sign up), through @mantine/form. Nothing is checked here:
 * the backend judges sign-in and sign-up and its catalogue message is shown (`error`).
 */
function CredentialsForm(props: {
  mode: 'in' | 'up';
  busy: boolean;
  error: string | null;
  onSubmit(values: Credentials): Promise<void>;
}) {
  const form = useForm<Credentials>({
    mode: 'controlled',
    initialValues: { email: '', password: '', name: '' },
  });
  const text = (field: keyof Credentials) => ({
    value: form.values[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => form.setFieldValue(field, e.currentTarget.value),
  });
  return (
    <form
      // The catalogue's messages, not the browser's bubbles, say what is wrong.
      noValidate
      onSubmit={form.onSubmit((v) => props.onSubmit(v))}
    >
      <Stack>
        {props.mode === 'up' && <TextInput label={ui('name')} {...text('name')} autoComplete="name" />}
        <TextInput label={ui('email')} type="email" required {...text('email')} autoComplete="email" />
        <PasswordInput
          label={ui('password')}
          required
          {...text('password')}
          autoComplete={props.mode === 'in' ? 'current-password' : 'new-password'}
        />
        {props.error && (
          <Text c="red" size="sm" role="alert">
            {props.error}
          </Text>
        )}
        <Button type="submit" loading={props.busy} fullWidth>
          {props.mode === 'in' ? ui('signIn') : ui('signUp')}
        </Button>
      </Stack>
    </form>
  );
}

function DemoAccounts(props: {
  accounts: readonly DemoAccount[];
  busy: boolean;
  onPick(a: DemoAccount): void;
}) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Text fw={600}>{ui('demoTitle')}</Text>
      <Text size="sm" c="dimmed" mb="sm">
        {ui('demoHint')}
      </Text>
      <SimpleGrid
        // Three at most a row: a name has room to be read whole, not cut off.
        cols={{ base: 2, xs: Math.min(props.accounts.length, 3) }}
        spacing="xs"
      >
        {props.accounts.map((a) => (
          <DemoButton key={a.email} account={a} disabled={props.busy} onClick={() => props.onPick(a)} />
        ))}
      </SimpleGrid>
    </Card>
  );
}

function DemoButton({
  account,
  onClick,
  disabled,
}: {
  account: DemoAccount;
  onClick(): void;
  disabled: boolean;
}) {
  const { model } = useRuntime();
  const label = demoAccountLabel(model, account);
  return (
    <UnstyledButton
      onClick={onClick}
      disabled={disabled}
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
      title={ui('demoAs', { role: label })}
    >
      <Stack gap={2} align="center">
        <IconUser size={20} />
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="xs" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
          {account.name ?? account.email}
        </Text>
      </Stack>
    </UnstyledButton>
  );
}
