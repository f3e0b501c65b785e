import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { ui } from '../runtime/uiText.ts';
import { ProfileForm } from './AdminProfileDialog.tsx';
import { useRuntime } from './context.ts';
import { errorMessage } from './display.tsx';
import { useRow } from './hooks.ts';
import { useNavigate } from './navigation.ts';
import { NotFoundPage } from './pages.tsx';

/**
 * "My profile" (`/profile`, from the account menu): the signed-in person's own row of the
 * specification's profile entity, edited within the spec's rules — the fields their roles may
 * update on their own row are inputs, the others read-only; the database enforces the same.
 */
export function ProfileScreen() {
  const { model, user } = useRuntime();
  const navigate = useNavigate();
  const entity = model.profile;
  const q = useRow(entity, user?.id);
  useEffect(() => {
    document.title = `${ui('myProfile')} · ${model.purpose.name}`;
  }, [model.purpose.name]);
  if (!entity || !user) return <NotFoundPage />;
  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1} size="h2">
          {ui('myProfile')}
        </Title>
        <Text c="dimmed" size="sm">
          {ui('myProfileIntro', { name: model.purpose.name })}
        </Text>
      </Stack>
      <Card withBorder radius="md" padding="lg">
        {q.data ? (
          <ProfileForm
            // A new form after each save, from the saved row (its version), so the next save is not a conflict.
            key={`${q.data.id}:${q.data.version}`}
            entity={entity}
            row={q.data}
            refetch={() => q.refetch().then((r) => r.data)}
            onDone={() => undefined}
            onCancel={() => navigate(-1)}
            showReadOnly
          />
        ) : q.isError ? (
          <Text size="sm">{errorMessage(model, q.error)}</Text>
        ) : (
          <Skeleton height={240} />
        )}
      </Card>
    </Stack>
  );
}
