// What other workspace features use of the products folder: the status and kind labels.
export { kindLabels, statusLabels } from './labels.ts';
export { ConflictNotice, EditorHeading, StatusPill } from './status.tsx';
export { ListingsPage, NoListings, statusFilter } from './list-kit.tsx';
export {
  DraftActions,
  DraftForm,
  ListingText,
  LoadedEditor,
  useDraftEditor,
} from './draft-editor.tsx';
