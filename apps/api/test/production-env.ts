/** A production environment that `loadConfig` accepts: each test changes one thing of it. */
export const productionEnv = {
  APP_ENV: 'production',
  PUBLIC_URL: 'https://tradeshelf.example',
  JWT_SECRET: 'Q3v9mX2pL8rT5wK1nB7cZ4hJ6dF0gY2s',
  CODE_SECRET: 'R8tW3kM6pN1vB9xC4zL7hQ2jF5gD0sA3',
  STORAGE_SECRET: 'Z5nK8wP2rT6vM1bX9cL4hJ7qF3gD0sY8',
  DATABASE_URL: 'postgres://db.internal/tradeshelf',
  SMTP_URL: 'smtp://mail.internal:587',
  STORAGE_DRIVER: 's3',
  S3_BUCKET: 'media',
  PAYMENTS_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  CHAT_PROVIDER: 'discord',
  DISCORD_CLIENT_ID: '1234567890123456789',
  DISCORD_CLIENT_SECRET: 'discord-secret',
  DISCORD_BOT_TOKEN: 'discord-bot-token',
} as const;
