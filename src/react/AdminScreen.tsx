import { Button, Card, Chip, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { AdminUser } from '../backend/types.ts';
import type { RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { useRuntime } from './context.ts';
import { notifyError, notifyOk, RefLabel } from './display.tsx';
import { ForbiddenPage } from './pages.tsx';

/** Users and their roles (backend.admin); the database decides who may do this. */
export function AdminScreen({ route }: { route: RouteEntry }) {
  const { backend, spec } = useRuntime();
  const users = useQuery({
    queryKey: ['__admin', 'users'],
    queryFn: () => backend.admin.listUsers(),
    retry: false,
  });
  if (users.isLoading) return <Skeleton height={300} />;
  if (users.isError) return <ForbiddenPage />;
  const profile = Object.entries(spec.entities).find(([, e]) => e.profile)?.[0];
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {route.title}
      </Title>
      <Card withBorder radius="md" padding={0}>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{ui('users')}</Table.Th>
                <Table.Th scope="col">{ui('roles')}</Table.Th>
                <Table.Th scope="col">{ui('joined')}</Table.Th>
                <Table.Th scope="col" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(users.data ?? []).map((u) => (
                <UserRow key={u.id} user={u} profile={profile} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}

function UserRow({ user, profile }: { user: AdminUser; profile: string | undefined }) {
  const { backend, spec } = useRuntime();
  const qc = useQueryClient();
  const [roles, setRoles] = useState<string[]>(user.roles);
  const save = useMutation({
    mutationFn: () => backend.admin.setRoles(user.id, roles),
    onSuccess: () => {
      notifyOk(ui('rolesSaved'));
      return qc.invalidateQueries({ queryKey: ['__admin'] });
    },
    onError: (e) => notifyError(spec, e),
  });
  const changed = [...roles].sort().join() !== [...user.roles].sort().join();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {profile ? <RefLabel entity={profile} id={user.id} /> : user.email}
        </Text>
        <Text size="xs" c="dimmed">
          {user.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <Chip.Group multiple value={roles} onChange={setRoles}>
          <Group gap={6}>
            {Object.entries(spec.roles.roles).map(([name, r]) => (
              <Chip key={name} value={name} size="xs">
                {r.label}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{dayjs(user.createdAt).format('D MMM YYYY')}</Text>
      </Table.Td>
      <Table.Td>
        <Button size="xs" disabled={!changed} loading={save.isPending} onClick={() => save.mutate()}>
          {ui('saveRoles')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
