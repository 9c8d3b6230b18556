import { DiscordSetup } from '../../features/workspace/delivery/discord.tsx';

export default DiscordSetup;
