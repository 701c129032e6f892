// Labelled form fields on React Aria Components: every control has its visible label, its
// description and its error tied to it for assistive technology.
import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  type ButtonProps as AriaButtonProps,
  FieldError,
  Input,
  Label,
  Text,
  TextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components';

interface TextFieldProps extends AriaTextFieldProps {
  label: string;
  description?: ReactNode;
  errorMessage?: string;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
}

export function TextField({ label, description, errorMessage, multiline = false, rows = 4, placeholder, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} className={['field', className].filter(Boolean).join(' ')}>
      <Label>{label}</Label>
      {multiline ? <TextArea rows={rows} placeholder={placeholder} /> : <Input placeholder={placeholder} />}
      {description !== undefined && <Text slot="description">{description}</Text>}
      <FieldError>{errorMessage}</FieldError>
    </AriaTextField>
  );
}

type Variant = 'primary' | 'secondary' | 'danger' | 'quiet';

export function Button({ variant = 'secondary', className, ...props }: AriaButtonProps & { variant?: Variant }) {
  return <AriaButton {...props} className={['button', `button-${variant}`, className].filter(Boolean).join(' ')} />;
}
