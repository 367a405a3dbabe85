# The PSGI app tests/e2e/lib-lore.sh and scripts/demo.sh give
# public-inbox-httpd: public-inbox's own web front (PublicInbox::WWW,
# what lore.kernel.org runs), with Plack's access log written to the file
# $LORE_ACCESS_LOG, one line per request ("POST /all/?q=...&x=m 200 -"),
# so that a test can count the requests fixscan sent.
use strict;
use warnings;
use PublicInbox::WWW;
use Plack::Builder;

my $www = PublicInbox::WWW->new;
$www->preload;
my $log = $ENV{LORE_ACCESS_LOG} or die "LORE_ACCESS_LOG is not set\n";
open(my $fh, '>>', $log) or die "cannot open $log: $!\n";
$fh->autoflush(1);

builder {
	enable 'AccessLog', format => '%m %U%q %>s %b', logger => sub { print $fh @_ };
	sub { $www->call(@_) };
};
