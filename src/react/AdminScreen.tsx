import { Button, Card, Chip, Group, Modal, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { AdminUser, Row } from '../backend/types.ts';
import { can } from '../runtime/can.ts';
import { dateText } from '../runtime/dateText.ts';
import type { RouteEntry } from '../runtime/routeTable.ts';
import { ui } from '../runtime/uiText.ts';
import { AdminProfileDialog } from './AdminProfileDialog.tsx';
import { useRuntime } from './context.ts';
import { FieldValue, notifyError, notifyOk, RefLabel } from './display.tsx';
import { useList } from './hooks.ts';
import { ForbiddenPage } from './pages.tsx';

/**
 * Users, their roles and their profiles (backend.admin for roles, the profile entity's update for
 * the rest); the database decides who may do either.
 */
export function AdminScreen({ route }: { route: RouteEntry }) {
  const { backend, model } = useRuntime();
  const users = useQuery({
    queryKey: ['__admin', 'users'],
    queryFn: () => backend.admin.listUsers(),
    retry: false,
  });
  const profile = model.profile;
  const p = profile ? model.tables.get(profile)?.spec : undefined;
  // The screen's profile columns beside each user (the name and e-mail are in the user cell).
  const columns = (model.screens.get(route.name)?.spec?.columns ?? []).filter((c) => {
    const f = p?.fields[c];
    return f !== undefined && c !== p?.title && f.type !== 'email';
  });
  const profiles = useList(profile, { limit: 1000, count: 'none' }, columns.length > 0);
  const byId = new Map((profiles.data?.rows ?? []).map((r) => [r.id, r]));
  const narrow = useMediaQuery('(max-width: 48em)') === true;
  if (users.isLoading) return <Skeleton height={300} />;
  if (users.isError) return <ForbiddenPage />;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {route.title}
      </Title>
      {narrow ? (
        // A phone gets one card per person: roles and Save are on screen, nothing scrolls sideways.
        <Stack gap="sm">
          {(users.data ?? []).map((u) => (
            <UserRow key={u.id} user={u} profile={profile} columns={columns} row={byId.get(u.id)} card />
          ))}
        </Stack>
      ) : (
        <Card withBorder radius="md" padding={0}>
          <Table.ScrollContainer minWidth={560 + 140 * columns.length}>
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{ui('users')}</Table.Th>
                  {columns.map((c) => (
                    <Table.Th key={c} scope="col">
                      {p?.fields[c]?.label ?? c}
                    </Table.Th>
                  ))}
                  <Table.Th scope="col">{ui('roles')}</Table.Th>
                  <Table.Th scope="col">{ui('joined')}</Table.Th>
                  <Table.Th scope="col" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(users.data ?? []).map((u) => (
                  <UserRow key={u.id} user={u} profile={profile} columns={columns} row={byId.get(u.id)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}

function UserRow({
  user,
  profile,
  columns,
  row,
  card = false,
}: {
  user: AdminUser;
  profile: string | undefined;
  columns: readonly string[];
  row: Row | undefined;
  /** One card (phones) instead of a table row. */
  card?: boolean;
}) {
  const { model, user: me } = useRuntime();
  const { roles, setRoles, save, changed, ownRemoved, confirming, setConfirming } = useRoleChange(user);
  const [editing, setEditing] = useState(false);
  // Only when some role of the admin may update profiles; the dialog then offers the fields it may.
  const editable = profile !== undefined && can(model, me, profile, 'update').ok;
  const who = (
    <>
      <Text size="sm" fw={500}>
        {profile ? <RefLabel entity={profile} id={user.id} /> : user.email}
      </Text>
      <Text size="xs" c="dimmed">
        {user.email}
      </Text>
    </>
  );
  const field = (c: string) => (profile && row ? <FieldValue entity={profile} name={c} row={row} /> : null);
  const chips = (
    <Chip.Group multiple value={roles} onChange={setRoles}>
      <Group gap={6}>
        {[...model.roles].map(([name, r]) => (
          <Chip key={name} value={name} size="xs">
            {r.label}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
  const actions = (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {editable && (
        <Button size="xs" variant="default" onClick={() => setEditing(true)}>
          {ui('editProfile')}
        </Button>
      )}
      <Button
        size="xs"
        disabled={!changed}
        loading={save.isPending}
        onClick={() => (ownRemoved.length > 0 ? setConfirming(true) : save.mutate())}
      >
        {ui('saveRoles')}
      </Button>
    </Group>
  );
  const dialogs = (
    <>
      <RemoveOwnRolesModal
        opened={confirming}
        roles={ownRemoved}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          save.mutate();
        }}
      />
      {editing && profile && (
        <AdminProfileDialog
          entity={profile}
          id={user.id}
          name={user.email}
          onClose={() => setEditing(false)}
        />
      )}
    </>
  );
  if (card) {
    const p = profile ? model.tables.get(profile)?.spec : undefined;
    return (
      <Card withBorder radius="md" padding="md" component="section" aria-label={user.email}>
        <Stack gap="xs">
          <div>{who}</div>
          {columns.map((c) => (
            <Labelled key={c} label={p?.fields[c]?.label ?? c}>
              {field(c)}
            </Labelled>
          ))}
          <Labelled label={ui('roles')}>{chips}</Labelled>
          <Labelled label={ui('joined')}>{dateText(user.createdAt)}</Labelled>
          {actions}
        </Stack>
        {dialogs}
      </Card>
    );
  }
  return (
    <Table.Tr>
      <Table.Td>{who}</Table.Td>
      {columns.map((c) => (
        <Table.Td key={c}>
          <Text size="sm">{field(c)}</Text>
        </Table.Td>
      ))}
      <Table.Td>{chips}</Table.Td>
      <Table.Td>
        <Text size="sm">{dateText(user.createdAt)}</Text>
      </Table.Td>
      <Table.Td>
        {actions}
        {dialogs}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The roles chosen for a person and their saving. Refused (the last admin, a role rules depend
 * on), the row shows the roles held again. Removing a role from oneself can lock one out of this
 * very screen: `ownRemoved` names them and the row asks first. (The server refuses removing the
 * last admin whoever does it: LAST_ADMIN.)
 */
function useRoleChange(user: AdminUser) {
  const { backend, model, user: me } = useRuntime();
  const qc = useQueryClient();
  const [roles, setRoles] = useState<string[]>(user.roles);
  const save = useMutation({
    mutationFn: () => backend.admin.setRoles(user.id, roles),
    onSuccess: () => {
      notifyOk(ui('rolesSaved'));
      return qc.invalidateQueries({ queryKey: ['__admin'] });
    },
    onError: (e) => {
      setRoles(user.roles);
      notifyError(model, e);
    },
  });
  const changed = [...roles].sort().join() !== [...user.roles].sort().join();
  const ownRemoved = user.id === me?.id ? user.roles.filter((r) => !roles.includes(r)) : [];
  const [confirming, setConfirming] = useState(false);
  return { roles, setRoles, save, changed, ownRemoved, confirming, setConfirming };
}

function RemoveOwnRolesModal(props: {
  opened: boolean;
  roles: readonly string[];
  onClose(): void;
  onConfirm(): void;
}) {
  const { model } = useRuntime();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={600}>{ui('removeOwnRolesTitle')}</Text>}
      centered
    >
      <Stack>
        <Text>
          {ui('removeOwnRoles', { roles: props.roles.map((r) => model.roles.get(r)?.label ?? r).join(', ') })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {ui('cancel')}
          </Button>
          <Button color="red" onClick={props.onConfirm}>
            {ui('removeOwnRolesConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A value on a phone's user card, under its column's name. */
function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}
