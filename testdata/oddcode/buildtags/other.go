package buildtags
