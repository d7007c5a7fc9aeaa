import { FileUpload as ArkFileUpload } from '@ark-ui/react/file-upload';
import type { ReactNode } from 'react';

interface FileUploadProps {
  /** The field's label. */
  label: ReactNode;
  /** What the drop zone says (drop a file here…); also its accessible name. */
  dropLabel: string;
  /** The button that opens the browser's file chooser. */
  chooseLabel: ReactNode;
  /** The remove button's accessible name. */
  removeLabel: string;
  /** MIME types and extensions the chooser offers (`text/csv`, `.csv`). */
  accept: string[];
  maxFileSize?: number;
  /** Already translated; shown under the control and announced. */
  error?: string | undefined;
  /** A hint that stays visible under the control. */
  description?: ReactNode;
  onFileChange: (file: File | null) => void;
}

/**
 * One file, dropped or chosen (Ark UI FileUpload): a labelled drop zone holding the choose button, the
 * chosen file with its size and a remove button, and the hidden input a form or a test sets. Texts come
 * from the caller, so this component adds nothing to the sign-in page's catalog.
 */
export function FileUpload({
  label,
  dropLabel,
  chooseLabel,
  removeLabel,
  accept,
  maxFileSize,
  error,
  description,
  onFileChange,
}: FileUploadProps) {
  return (
    <ArkFileUpload.Root
      className="file-upload"
      maxFiles={1}
      accept={accept}
      maxFileSize={maxFileSize}
      onFileChange={(details) => onFileChange(details.acceptedFiles[0] ?? null)}
      invalid={Boolean(error)}
      translations={{ dropzone: dropLabel }}
    >
      <ArkFileUpload.Label className="field__label">{label}</ArkFileUpload.Label>
      {/* Clicking the zone does nothing of its own: the button inside chooses, so no control nests in another. */}
      <ArkFileUpload.Dropzone className="file-upload__dropzone" disableClick>
        <span>{dropLabel}</span>
        <ArkFileUpload.Trigger className="button button--secondary">{chooseLabel}</ArkFileUpload.Trigger>
      </ArkFileUpload.Dropzone>
      {description ? <div className="field__hint">{description}</div> : null}
      <ArkFileUpload.ItemGroup className="file-upload__items">
        <ArkFileUpload.Context>
          {({ acceptedFiles }) =>
            acceptedFiles.map((file) => (
              <ArkFileUpload.Item key={file.name} file={file} className="file-upload__item">
                <ArkFileUpload.ItemName className="file-upload__name" />
                <ArkFileUpload.ItemSizeText className="file-upload__size" />
                <ArkFileUpload.ItemDeleteTrigger className="button button--link" aria-label={removeLabel}>
                  ✕
                </ArkFileUpload.ItemDeleteTrigger>
              </ArkFileUpload.Item>
            ))
          }
        </ArkFileUpload.Context>
      </ArkFileUpload.ItemGroup>
      {error ? (
        <div className="field__error" role="alert">
          {error}
        </div>
      ) : null}
      <ArkFileUpload.HiddenInput />
    </ArkFileUpload.Root>
  );
}
