// A new password typed twice. Both rules are checked in the page before anything is sent: the
// server's own length rule (NewPassword in src/modules/users/users.schemas.ts: at least 12
// characters, any characters) and that the two copies match. React Aria's Form shows the failures on
// the fields and stops the submission.
import { TextField } from '../../ui/Fields';

/** The server's minimum, counted as it counts (characters, not UTF-16 units). */
export const MIN_PASSWORD_LENGTH = 12;

const lengthOf = (text: string) => [...text].length;

interface NewPasswordFieldsProps {
  password: string;
  onPasswordChange(value: string): void;
  repeated: string;
  onRepeatedChange(value: string): void;
}

export function NewPasswordFields({ password, onPasswordChange, repeated, onRepeatedChange }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        isRequired
        value={password}
        onChange={onPasswordChange}
        description={`At least ${MIN_PASSWORD_LENGTH} characters; a few words make a good one.`}
        validate={(value) => (value !== '' && lengthOf(value) < MIN_PASSWORD_LENGTH ? `Use at least ${MIN_PASSWORD_LENGTH} characters.` : null)}
      />
      <TextField
        label="New password again"
        name="password_repeated"
        type="password"
        autoComplete="new-password"
        isRequired
        value={repeated}
        onChange={onRepeatedChange}
        validate={(value) => (value !== '' && value !== password ? 'The two passwords differ.' : null)}
      />
    </>
  );
}
