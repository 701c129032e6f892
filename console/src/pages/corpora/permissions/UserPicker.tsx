// A user of the organization, found by name or e-mail as one types (GET /api/v2/users?q=).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text, type Key } from 'react-aria-components';
import { api, type Schemas } from '../../../api/client';
import { messageOf, unwrap } from '../../../api/errors';

type User = Schemas['User'];

const fullName = (user: User) => [user.first_name, user.last_name].filter(Boolean).join(' ');

interface UserPickerProps {
  selectedId: number | null;
  onSelect: (userId: number | null) => void;
}

export function UserPicker({ selectedId, onSelect }: UserPickerProps) {
  const [typed, setTyped] = useState('');
  const users = useQuery({
    queryKey: ['users', 'search', typed],
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/users', { params: { query: { is_active: true, page_size: 20, ...(typed.trim() === '' ? {} : { q: typed.trim() }) } } }))).data.items,
    placeholderData: (previous) => previous,
  });

  return (
    <ComboBox
      className="react-aria-ComboBox field"
      items={users.data ?? []}
      inputValue={typed}
      onInputChange={(value) => {
        setTyped(value);
        // Typing something else than the chosen user's e-mail unchooses them.
        const chosen = users.data?.find((user) => user.id === selectedId);
        if (chosen !== undefined && value !== chosen.email) onSelect(null);
      }}
      selectedKey={selectedId}
      onSelectionChange={(key: Key | null) => onSelect(typeof key === 'number' ? key : null)}
      menuTrigger="focus"
      allowsEmptyCollection
    >
      <Label>User</Label>
      <div className="combo-input">
        <Input placeholder="Name or e-mail" />
        <Button aria-label="Show users">▾</Button>
      </div>
      {users.isError && <Text slot="errorMessage" className="react-aria-FieldError">The users could not be loaded: {messageOf(users.error)}</Text>}
      <Popover>
        <ListBox renderEmptyState={() => <p className="muted text-small user-picker-empty">No user matches</p>}>
          {(user: User) => (
            <ListBoxItem id={user.id} textValue={user.email}>
              {fullName(user) === '' ? user.email : `${fullName(user)} · ${user.email}`}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
